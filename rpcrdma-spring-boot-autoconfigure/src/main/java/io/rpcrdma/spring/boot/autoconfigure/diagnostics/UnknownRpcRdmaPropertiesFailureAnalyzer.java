package io.rpcrdma.spring.boot.autoconfigure.diagnostics;

import java.util.StringJoiner;

import io.rpcrdma.spring.boot.autoconfigure.keys.UnknownProperty;
import io.rpcrdma.spring.boot.autoconfigure.keys.UnknownRpcRdmaPropertiesException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Unknown {@code rpcrdma.*} keys: each, where it is set, and the valid key nearest to it. */
final class UnknownRpcRdmaPropertiesFailureAnalyzer extends AbstractFailureAnalyzer<UnknownRpcRdmaPropertiesException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnknownRpcRdmaPropertiesException cause) {
		StringJoiner description = new StringJoiner(System.lineSeparator(),
				"Unknown rpcrdma.* properties:" + System.lineSeparator(), "");
		for (UnknownProperty property : cause.unknown()) {
			description.add("- " + property.describe());
		}
		return new FailureAnalysis(description.toString(), "Correct or remove these keys in application.yml or "
				+ "application.properties; docs/configuration.md lists every rpcrdma.* property.", cause);
	}

}

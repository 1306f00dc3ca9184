package io.rpcrdma.spring.boot.autoconfigure.diagnostics;

import java.util.List;
import java.util.StringJoiner;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import io.rpcrdma.verbs.MissingRequirement;
import io.rpcrdma.verbs.ProviderUnavailableException;

/**
 * The RDMA provider {@code rpcrdma.provider} names cannot run here: what it misses and the
 * providers that can run instead, then one remedy per line.
 */
final class ProviderUnavailableFailureAnalyzer extends AbstractFailureAnalyzer<ProviderUnavailableException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ProviderUnavailableException cause) {
		if (cause.provider().isEmpty()) {
			return new FailureAnalysis(cause.getMessage(), "Set rpcrdma.provider to auto, loopback, siw or disni; "
					+ "docs/providers.md says what each needs.", cause);
		}
		String provider = cause.provider().get();
		List<MissingRequirement> missing = cause.missingRequirements();
		StringJoiner needs = new StringJoiner("; ");
		StringJoiner action = new StringJoiner(System.lineSeparator());
		for (MissingRequirement requirement : missing) {
			needs.add(requirement.requirement());
			if (!requirement.remedy().isEmpty()) {
				action.add("- " + requirement.remedy());
			}
		}
		String alternatives = cause.availableProviders().isEmpty() ? "no provider is available here"
				: "available here: " + String.join(", ", cause.availableProviders());
		// The way out goes with the description, so that the report stays within 15 lines
		// with every requirement missing (one remedy line each).
		String description = "rpcrdma.provider is '" + provider + "', which cannot run here: " + missing.size()
				+ ((missing.size() == 1) ? " requirement is" : " requirements are") + " missing: " + needs + ". Or set"
				+ " rpcrdma.provider to another provider (" + alternatives + "); see docs/hardware.md.";
		return new FailureAnalysis(description, action.toString(), cause);
	}

}

package io.rpcrdma.spring.boot.autoconfigure.diagnostics;

import java.util.StringJoiner;

import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;

/**
 * Invalid {@code rpcrdma.*} properties: every rule broken, one per line, and where the rules
 * are written down. Ahead of Boot's general binding analysis, which ends in "Update your
 * application's configuration"; other prefixes are left to it.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
final class RpcRdmaPropertiesFailureAnalyzer extends AbstractFailureAnalyzer<BindValidationException> {

	private static final String PREFIX = "rpcrdma";

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, BindValidationException cause) {
		String name = cause.getValidationErrors().getName().toString();
		if (!name.equals(PREFIX) && !name.startsWith(PREFIX + ".")) {
			return null;
		}
		StringJoiner description = new StringJoiner(System.lineSeparator(), "Invalid rpcrdma.* configuration:"
				+ System.lineSeparator(), "");
		for (ObjectError error : cause.getValidationErrors()) {
			String message = error.getDefaultMessage();
			description.add("- " + ((error instanceof FieldError field) ? name + "." + field.getField() + ": " + message
					: message));
		}
		return new FailureAnalysis(description.toString(), "Correct these properties in application.yml or "
				+ "application.properties; docs/configuration.md lists every rpcrdma.* property with its default and range.",
				cause);
	}

}

package io.rpcrdma.spring.boot.autoconfigure.diagnostics;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import io.rpcrdma.service.ServiceDefinitionException;
import io.rpcrdma.service.ServiceExportException;
import io.rpcrdma.spring.boot.RpcServiceExportFailedException;

/**
 * An {@code @RpcService} bean cannot be served: its interface has methods the service binding
 * cannot map (each named, with the type), two beans serve the same program version, or the
 * bean implements no {@code @RpcProgram} interface.
 */
final class RpcServiceExportFailureAnalyzer extends AbstractFailureAnalyzer<RpcServiceExportFailedException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, RpcServiceExportFailedException cause) {
		String bean = cause.getBeanName();
		if (cause.getCause() instanceof ServiceDefinitionException definition) {
			return new FailureAnalysis("@RpcService bean '" + bean + "' cannot be served: " + definition.getMessage(),
					"Change those methods so that every parameter and result is a type the service binding maps "
							+ "(primitives, String, byte[], enums, records and collections of them, @Bulk BulkData), "
							+ "or declare a codec for the type (docs/service.md, \"Java values as XDR\").",
					cause);
		}
		ServiceExportException.Reason reason = (cause.getCause() instanceof ServiceExportException export)
				? export.reason() : ServiceExportException.Reason.OTHER;
		String action = switch (reason) {
			case PROGRAM_VERSION_TAKEN -> "Serve each program version from one bean: remove one of them, or give its "
					+ "interface a program number or version of its own (@RpcProgram(number = ..., version = ...)).";
			case NO_PROGRAM_INTERFACE -> "Make the bean implement its service interface, annotated @RpcProgram, or "
					+ "remove @RpcService from it.";
			case OTHER -> "See the cause above; docs/service.md explains how services are served.";
		};
		return new FailureAnalysis(cause.getMessage(), action, cause);
	}

}

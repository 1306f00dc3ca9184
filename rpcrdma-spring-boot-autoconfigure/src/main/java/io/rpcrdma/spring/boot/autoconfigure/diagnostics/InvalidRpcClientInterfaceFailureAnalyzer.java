package io.rpcrdma.spring.boot.autoconfigure.diagnostics;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import io.rpcrdma.spring.boot.client.InvalidRpcClientInterfaceException;

/**
 * {@code @ImportRpcClients} names a type no client can be made for.
 */
final class InvalidRpcClientInterfaceFailureAnalyzer extends AbstractFailureAnalyzer<InvalidRpcClientInterfaceException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidRpcClientInterfaceException cause) {
		return new FailureAnalysis("@ImportRpcClients lists " + cause.type().getName()
				+ ", which is not an interface annotated @RpcProgram, so no RPC client can be made for it.",
				"List only service interfaces annotated @RpcProgram (the interface the server's @RpcService bean "
						+ "implements) in @ImportRpcClients.",
				cause);
	}

}

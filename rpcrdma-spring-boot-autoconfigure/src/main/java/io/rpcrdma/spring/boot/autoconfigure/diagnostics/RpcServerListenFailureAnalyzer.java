package io.rpcrdma.spring.boot.autoconfigure.diagnostics;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import io.rpcrdma.spring.boot.autoconfigure.server.RpcServerListenException;

/**
 * The RPC-over-RDMA server could not listen where {@code rpcrdma.server.address} and
 * {@code rpcrdma.server.port} say: the port is taken, or the host name does not resolve.
 */
final class RpcServerListenFailureAnalyzer extends AbstractFailureAnalyzer<RpcServerListenException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, RpcServerListenException cause) {
		String host = cause.address().getHostString();
		int port = cause.address().getPort();
		return switch (cause.reason()) {
			case ADDRESS_IN_USE -> new FailureAnalysis("The RPC-over-RDMA server could not listen on " + host + ":" + port
					+ " (provider " + cause.provider() + "): the port is already in use.",
					"Stop whatever listens on port " + port + ", or set rpcrdma.server.port to another port "
							+ "(0 picks a free one).", cause);
			case UNRESOLVABLE_ADDRESS -> new FailureAnalysis("The RPC-over-RDMA server could not listen: "
					+ "rpcrdma.server.address '" + host + "' does not resolve to an IP address.",
					"Set rpcrdma.server.address to an IP address or a host name this machine resolves "
							+ "(0.0.0.0 listens on every interface).", cause);
			case OTHER -> new FailureAnalysis(cause.getMessage(), "Check rpcrdma.server.address, rpcrdma.server.port "
					+ "and rpcrdma.provider (now " + cause.provider() + ").", cause);
		};
	}

}

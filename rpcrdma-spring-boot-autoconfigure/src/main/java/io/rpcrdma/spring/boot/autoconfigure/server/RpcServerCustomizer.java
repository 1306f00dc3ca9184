package io.rpcrdma.spring.boot.autoconfigure.server;

import io.rpcrdma.server.RpcServer;

/**
 * Adjusts the settings the auto-configured RPC server starts with, after
 * {@code rpcrdma.server.*} has been applied; for example a transport setting that has no
 * property. Customizer beans are applied in {@link org.springframework.core.Ordered order}.
 */
@FunctionalInterface
public interface RpcServerCustomizer {

	/**
	 * @param config the settings so far
	 * @return the settings to use (a changed copy, or {@code config} itself)
	 */
	RpcServer.Config customize(RpcServer.Config config);

}

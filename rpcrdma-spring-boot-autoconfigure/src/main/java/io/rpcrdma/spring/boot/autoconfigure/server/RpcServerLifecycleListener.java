package io.rpcrdma.spring.boot.autoconfigure.server;

import java.util.List;

import io.rpcrdma.server.RpcServer;
import io.rpcrdma.service.ExportedService;

/**
 * Told by {@link RpcRdmaServerLifecycle} when its server has started listening and when it is
 * about to stop accepting, for what must follow the server's life: announcing it where
 * clients look it up (rpcbind) and withdrawing it before it goes. Listener beans are called in
 * order at start and in reverse order at stop.
 */
public interface RpcServerLifecycleListener {

	/**
	 * The server listens and serves {@code services}. Throwing fails the start: the server is
	 * stopped again and the exception ends the application context's refresh.
	 * @param server the running server
	 * @param services what it serves
	 */
	void started(RpcServer server, List<ExportedService> services);

	/**
	 * The server is about to stop accepting connections and calls. Exceptions are logged, not
	 * propagated: the shutdown goes on.
	 * @param server the server that stops
	 */
	void stopping(RpcServer server);

}

package io.rpcrdma.spring.boot.client;

import io.rpcrdma.client.RpcCaller;

/**
 * How a named client's calls are protected beyond their credential: for RPCSEC_GSS, an
 * {@link io.rpcrdma.client.security.RpcSecGssClient} over each connection, since a server binds
 * a context to the connection it was created on. Applied to every connection as it opens
 * ({@link io.rpcrdma.client.RpcClientPool#protectConnections}); a caller it returns that is a
 * {@link io.rpcrdma.client.ConnectionProtection} is closed before its connection.
 */
@FunctionalInterface
public interface RpcCallerSecurity {

	/** Calls go through the pool as they are. */
	RpcCallerSecurity NONE = (connection) -> connection;

	/**
	 * @param connection one connection to a server
	 * @return the caller the connection's calls go through instead
	 */
	RpcCaller protect(RpcCaller connection);

}

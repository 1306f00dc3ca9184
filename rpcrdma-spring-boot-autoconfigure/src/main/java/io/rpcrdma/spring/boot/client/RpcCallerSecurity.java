package io.rpcrdma.spring.boot.client;

import io.rpcrdma.client.RpcCaller;

/**
 * How a named client's calls to one server are protected beyond their credential: for
 * RPCSEC_GSS, an {@link io.rpcrdma.client.security.RpcSecGssClient} over the server's
 * connection pool. Applied once per server address when the client's pools open; a caller it
 * returns that is {@link AutoCloseable} is closed before its pool.
 */
@FunctionalInterface
public interface RpcCallerSecurity {

	/** Calls go through the pool as they are. */
	RpcCallerSecurity NONE = (pool) -> pool;

	/**
	 * @param pool the connection pool to one server
	 * @return the caller the client's proxies call through instead
	 */
	RpcCaller protect(RpcCaller pool);

}

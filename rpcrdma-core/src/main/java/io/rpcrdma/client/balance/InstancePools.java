package io.rpcrdma.client.balance;

import io.rpcrdma.client.RpcClientPool;

/**
 * Opens the connection pool to one instance, when a {@link BalancedCaller} first sends it a
 * call. The pool should not retry calls itself ({@link io.rpcrdma.client.RetryPolicy#none()}):
 * the balanced caller retries, on another instance when there is one, where a pool would wait
 * for its own server to come back.
 */
@FunctionalInterface
public interface InstancePools {

	/**
	 * @param instance the instance
	 * @return a pool to it; its connections may open in the background
	 */
	RpcClientPool open(ServerInstance instance);

}

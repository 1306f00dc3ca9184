package io.rpcrdma.client;

import java.util.concurrent.CompletableFuture;

/**
 * A caller over one connection that protects its calls and has something to undo over that
 * connection before it closes: an RPCSEC_GSS client destroys its context (RFC 2203 §5.4). An
 * {@link RpcClientPool} whose connections are protected ({@link RpcClientPool#protectConnections})
 * undoes it without blocking a thread, for every connection at once when it closes.
 */
public interface ConnectionProtection extends RpcCaller, AutoCloseable {

	/**
	 * Undoes the protection over the connection, bounded in time by the implementation.
	 * @return completes (never exceptionally) when done or given up on
	 */
	CompletableFuture<Void> closeAsync();

	/** {@link #closeAsync()}, waited for. */
	@Override
	default void close() {
		closeAsync().join();
	}

}

package io.rpcrdma.client;

import java.util.concurrent.CompletableFuture;

/**
 * A call awaiting its reply in {@link PendingCalls}.
 *
 * @param <R> what the transport delivers as a reply
 * @param call which call, with its allocated xid
 * @param reply completes with the reply, or exceptionally with {@link CallTimeoutException},
 * {@link ConnectionLostException} or another {@link RpcCallException}; cancelling it forgets
 * the call, and a reply arriving later is dropped
 */
public record PendingCall<R>(RemoteCall call, CompletableFuture<R> reply) {

	/**
	 * @return the call's xid
	 */
	public int xid() {
		return this.call.xid();
	}

	/**
	 * Gives up waiting for the reply.
	 * @return whether this cancelled it (false if it had already completed)
	 */
	public boolean cancel() {
		return this.reply.cancel(false);
	}

}

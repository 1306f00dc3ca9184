package io.rpcrdma.transport;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A requester's RPC-over-RDMA connection as the RPC layer sees it: calls in, replies out,
 * matched by XID. The RPC layer owns XIDs, retransmission and per-call deadlines.
 */
public interface RpcTransport extends AutoCloseable {

	/**
	 * Conveys a call once a credit is free (RFC 5666 §3.3) and completes with its reply.
	 * Fails with {@link CreditWaitTimeoutException}, {@link RdmaErrorReceivedException},
	 * {@link VersionNegotiationException}, {@link MessageTooLargeException},
	 * {@link TransportResourceException} or {@link TransportClosedException}. Cancelling the
	 * future does not return the credit: only the reply does.
	 * @param call the encoded call; its XID must not be outstanding already
	 * @return the reply
	 */
	CompletableFuture<InboundReply> call(OutboundCall call);

	/**
	 * Conveys a call as {@link #call(OutboundCall)} does and tells {@code completion} how it
	 * ends, without a future. This default adapts the future; a transport on the call path
	 * overrides it to allocate nothing per call.
	 * @param call the encoded call; its XID must not be outstanding already
	 * @param completion told the reply or the failure, exactly once
	 */
	default void call(OutboundCall call, CallCompletion completion) {
		CompletableFuture<InboundReply> reply;
		try {
			reply = call(call);
		}
		catch (RuntimeException ex) {
			completion.failed(ex);
			return;
		}
		reply.whenComplete((inbound, error) -> {
			if (error != null) {
				completion.failed((error instanceof CompletionException && error.getCause() != null) ? error.getCause() : error);
			}
			else {
				completion.replied(inbound.version(), inbound.message(), inbound.writeChunks(), inbound.padding());
			}
		});
	}

	/** @return whether the connection is usable */
	boolean isOpen();

	/**
	 * @return what this connection conveyed so far, and how (inline, which chunks)
	 */
	TransportStats stats();

	/** @return completes when the connection is down, for whatever reason */
	CompletableFuture<Void> closeFuture();

	/**
	 * Disconnects; outstanding calls fail with {@link TransportClosedException}. Idempotent.
	 */
	@Override
	void close();

}

package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

import io.rpcrdma.protocol.ccp.ConfigRdmaReply;
import io.rpcrdma.protocol.ccp.ConfigRdmaRequest;

/**
 * Sends the reply to one {@link InboundCall}, once. May be called from any thread.
 */
public interface ReplySender {

	/**
	 * Conveys the reply: inline, with Write chunks, in the Reply chunk, or as RDMA_ERROR when
	 * it cannot be conveyed at all.
	 * @param reply the encoded reply
	 * @return completes when the reply was sent (and, for RFC 5666 Read chunk replies, when
	 * the requester sent RDMA_DONE or the wait timed out)
	 */
	CompletableFuture<Void> reply(OutboundReply reply);

	/**
	 * {@link #reply(OutboundReply)} telling a listener instead of completing a future: a
	 * small inline reply is then conveyed without allocating.
	 * @param reply the encoded reply
	 * @param listener told once, with the call's XID, when the reply was sent or could not be
	 */
	default void reply(OutboundReply reply, ReplyListener listener) {
		int xid = reply.message().getInt(reply.message().position());
		reply(reply).whenComplete((ignored, failure) -> listener.replied(xid, failure));
	}

	/**
	 * {@link #reply(OutboundReply, ReplyListener)} of a reply with nothing DDP-eligible,
	 * without describing it: the common small reply, conveyed without allocating.
	 * @param message the encoded reply between position and limit; copied before this returns
	 * @param listener told once, with the call's XID, when the reply was sent or could not be
	 */
	default void replyInline(ByteBuffer message, ReplyListener listener) {
		reply(OutboundReply.inline(message), listener);
	}

	/**
	 * The RPC layer is done with the call: after it has replied or dropped it, it will use
	 * neither this sender nor the call's message again, so the transport may reuse both for a
	 * later call. An RPC layer that never calls this loses nothing but that reuse. Call once,
	 * and only after {@link #reply}, {@link #replyTooLarge} or {@link #drop()}.
	 */
	default void release() {
	}

	/**
	 * The reply cannot be conveyed: it is larger than the requester receives inline and than
	 * the Reply chunk it offered, if any. The requester is told at once with RDMA_ERROR
	 * (RFC 8166 §4.5.3: ERR_CHUNK; RDMA_ERR_BAD_HEADER in Version 2), so it fails the call
	 * with a {@link ReplyTooLargeException} instead of waiting for its timeout.
	 * @param size the reply's size, or a lower bound of it, in bytes
	 * @return completes when the error was sent
	 */
	default CompletableFuture<Void> replyTooLarge(long size) {
		drop();
		return CompletableFuture.completedFuture(null);
	}

	/**
	 * Gives up on the call without an RPC reply: the requester's credit is returned. Use when
	 * the RPC layer drops the call (for example a duplicate in progress).
	 */
	void drop();

	/**
	 * The address of the requester that sent the call, for an RPC layer that identifies
	 * clients (for example a duplicate request cache, which recognises a retransmission by the
	 * host and gives each address with port its own entries).
	 * @return the requester's address, or {@code null} if unknown
	 */
	default java.net.InetSocketAddress peerAddress() {
		return null;
	}

	/**
	 * The backward direction of the connection the call came on (RFC 8167), for calls to the
	 * requester.
	 * @return its backward-direction calls, or {@code null} when the connection makes none
	 */
	default BackwardCalls backwardCalls() {
		return null;
	}

	/**
	 * The connection the call came on, as an identity: what an RPC layer binds per-connection
	 * state to, such as RPCSEC_GSS contexts (RFC 2203), so that a handle learnt on one
	 * connection is worth nothing on another.
	 * @return the connection, or {@code null} when the call came over no connection
	 */
	default Object connection() {
		return null;
	}

	/**
	 * @return completes when {@link #connection()} is closed; {@code null} when that is
	 * {@code null}
	 */
	default CompletableFuture<Void> connectionClosed() {
		return null;
	}

	/**
	 * RFC 5666 §6.2, §11: applies a CONF_RDMA request that the RPC layer admitted under an RPC
	 * security flavor (the transport answers unprotected CCP itself only when the server has no
	 * security policy) to the connection the call came on, exactly as the transport's own CCP
	 * responder would, and returns this side's values for the reply.
	 * @param request the requester's sizes and read depth, already checked against RFC 8166
	 * §3.3.2's 1024-byte minimum
	 * @return this side's values, or {@code null} when the call came over no connection that
	 * CCP configures
	 */
	default ConfigRdmaReply configureInBand(ConfigRdmaRequest request) {
		return null;
	}

}

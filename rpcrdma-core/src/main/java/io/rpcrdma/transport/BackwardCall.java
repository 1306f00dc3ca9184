package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One backward-direction call a requester received (RFC 8167 §3.2), answered exactly once
 * with {@link #reply} or {@link #drop}. The reply travels inline in an RDMA_MSG of the call's
 * version (RFC 8167 §4.2: the backward direction uses the connection's inline thresholds and,
 * without an Upper-Layer Binding that says otherwise, no chunks, §7), carrying the
 * backward-direction credits this requester grants (§4.1).
 */
public final class BackwardCall {

	private final BackwardCallReceiver receiver;

	private final int xid;

	private final int version;

	private final ByteBuffer message;

	private final AtomicBoolean answered = new AtomicBoolean();

	BackwardCall(BackwardCallReceiver receiver, int xid, int version, ByteBuffer message) {
		this.receiver = receiver;
		this.xid = xid;
		this.version = version;
		this.message = message;
	}

	/** @return the call's XID, rdma_xid and the RPC message's alike */
	public int xid() {
		return this.xid;
	}

	/** @return the RPC-over-RDMA version it came in, which the reply uses too */
	public int version() {
		return this.version;
	}

	/** @return the RPC call message, owned by the handler */
	public ByteBuffer message() {
		return this.message;
	}

	/** @return the largest RPC reply that can go back inline: the responder's receive size less the header */
	public int replyLimit() {
		return this.receiver.replyLimit(this.version);
	}

	/**
	 * @return the responder's address
	 */
	public java.net.InetSocketAddress peerAddress() {
		return this.receiver.remoteAddress();
	}

	/**
	 * Sends the reply.
	 * @param reply the encoded RPC reply between position and limit, at most {@link #replyLimit()}
	 * bytes; read before this returns
	 * @throws MessageTooLargeException if it does not fit inline (the call then counts as
	 * answered: the handler answers again with a smaller reply through a new call only)
	 * @throws IllegalStateException if the call was already answered
	 */
	public void reply(ByteBuffer reply) {
		if (!this.answered.compareAndSet(false, true)) {
			throw new IllegalStateException("Backward-direction call XID 0x" + Integer.toHexString(this.xid)
					+ " was answered already");
		}
		this.receiver.sendReply(this, reply);
	}

	/**
	 * Answers nothing, giving the backward-direction credit back: the responder's call then
	 * ends with its deadline.
	 */
	public void drop() {
		if (this.answered.compareAndSet(false, true)) {
			this.receiver.done();
		}
	}

	/** @return whether {@link #reply} or {@link #drop} was called */
	public boolean isAnswered() {
		return this.answered.get();
	}

}

package io.rpcrdma.transport;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.ChunkedHeader;
import io.rpcrdma.protocol.TraceContext;
import io.rpcrdma.protocol.WriteChunk;
import io.rpcrdma.protocol.ccp.ConfigRdmaReply;
import io.rpcrdma.protocol.ccp.ConfigRdmaRequest;
import io.rpcrdma.verbs.WorkCompletion;
import io.rpcrdma.xdr.OpaquePadding;

/**
 * One received call until its reply is sent. A call with chunks gets a context of its own;
 * a chunk-less one (see {@link RpcRdmaServerConnection#acceptChunkless}) a recycled context holding a copy of the
 * RPC message, which goes back to the free list only when both holds are gone: the
 * transport's (its reply's Send completed, or it was dropped or refused without a Send)
 * and the RPC layer's ({@link #release()}). A context that took any other way (a reply
 * with chunks, a failing executor or RPC layer) is never reused, so nothing that may still
 * refer to it can reach a later call.
 */
final class CallContext implements ReplySender, Runnable, RpcRdmaEndpoint.SendOwner {

	private final RpcRdmaServerConnection connection;

	int xid;

	int version;

	ChunkLists lists;

	OpaquePadding padding;

	/** The requester's trace context (TraceContextOption), or {@code null}. */
	TraceContext traceContext;

	InboundCall call;

	private final AtomicBoolean answered = new AtomicBoolean();

	/** The registered buffer the call was placed in, released once the call is answered. */
	volatile RegisteredBuffer placed;

	/** The connection's bulk share {@link #placed} was admitted with. */
	long placedShare;

	// ---- chunk-less calls only

	/** Whether this context is recycled; cleared for good when a use goes the general way. */
	private final boolean pooled;

	private volatile boolean reusable;

	/** The copy of the RPC message: {@link #bytes} between 0 and the call's length. */
	private byte[] bytes;

	ByteBuffer inline;

	private final AtomicInteger holds = new AtomicInteger();

	private final AtomicBoolean released = new AtomicBoolean();

	/** Guarded by the endpoint's operation table: set before the Send is posted. */
	private RegisteredBuffer sendBuffer;

	private boolean sendCompleted;

	private ReplyListener listener;

	private CompletableFuture<Void> sent;

	CallContext(RpcRdmaServerConnection connection, ChunkedHeader header, OpaquePadding padding) {
		this.connection = connection;
		this.padding = padding;
		this.xid = header.xid();
		this.version = header.version();
		this.lists = header.chunkLists();
		this.pooled = false;
	}

	CallContext(RpcRdmaServerConnection connection, int capacity) {
		this.connection = connection;
		this.pooled = true;
		this.bytes = new byte[Math.min(capacity, 256)];
		this.inline = ByteBuffer.wrap(this.bytes);
	}

	/** Takes the next chunk-less call, copying its RPC message out of the receive buffer. */
	void reuse(int xid, int version, ByteBuffer received, int offset, int length) {
		if (this.bytes.length < length) {
			// At most the receive buffer's size: larger messages cannot arrive.
			this.bytes = new byte[length];
			this.inline = ByteBuffer.wrap(this.bytes);
		}
		received.get(offset, this.bytes, 0, length);
		this.inline.limit(length).position(0);
		this.xid = xid;
		this.version = version;
		this.lists = ChunkLists.EMPTY;
		this.padding = null;
		this.traceContext = null;
		this.call = null;
		this.answered.set(false);
		this.released.set(false);
		this.reusable = true;
		this.listener = null;
		this.sent = null;
		this.holds.set(2);
	}

	@Override
	public void run() {
		try {
			this.connection.handler().onCall(this.call, this);
		}
		catch (RuntimeException ex) {
			// A failing RPC layer must not keep the requester's credit forever; the
			// requester's RPC layer times the call out.
			fail();
		}
	}

	/** The call could not be handed to the RPC layer, or the RPC layer threw. */
	void fail() {
		this.reusable = false;
		drop();
	}

	int firstAdvertisedStag() {
		for (WriteChunk chunk : this.lists.writeList()) {
			if (!chunk.segments().isEmpty()) {
				return chunk.segments().get(0).handle();
			}
		}
		WriteChunk reply = this.lists.replyChunk();
		if (reply != null && !reply.segments().isEmpty()) {
			return reply.segments().get(0).handle();
		}
		return 0;
	}

	@Override
	public CompletableFuture<Void> reply(OutboundReply reply) {
		if (!this.answered.compareAndSet(false, true)) {
			return CompletableFuture.failedFuture(alreadyAnswered());
		}
		if (conveysChunkless(reply)) {
			CompletableFuture<Void> done = new CompletableFuture<>();
			this.sent = done;
			sendChunklessReply(reply.message());
			return done;
		}
		return replyGenerally(reply);
	}

	@Override
	public void reply(OutboundReply reply, ReplyListener whenSent) {
		if (!this.answered.compareAndSet(false, true)) {
			whenSent.replied(this.xid, alreadyAnswered());
			return;
		}
		if (conveysChunkless(reply)) {
			this.listener = whenSent;
			sendChunklessReply(reply.message());
			return;
		}
		int answeredXid = this.xid;
		replyGenerally(reply).whenComplete((ignored, failure) -> whenSent.replied(answeredXid, failure));
	}

	@Override
	public void replyInline(ByteBuffer message, ReplyListener whenSent) {
		if (fitsChunkless(message)) {
			if (!this.answered.compareAndSet(false, true)) {
				whenSent.replied(this.xid, alreadyAnswered());
				return;
			}
			this.listener = whenSent;
			sendChunklessReply(message);
			return;
		}
		reply(OutboundReply.inline(message), whenSent);
	}

	private IllegalStateException alreadyAnswered() {
		return new IllegalStateException("XID 0x" + Integer.toHexString(this.xid) + " was already answered");
	}

	/**
	 * Whether the reply goes as a chunk-less RDMA_MSG: the call offered no chunk, nothing in
	 * the reply is DDP-eligible, and it fits the requester's inline threshold (RFC 8166
	 * §3.5.1); then the header is written in place and the Send reused.
	 */
	private boolean conveysChunkless(OutboundReply reply) {
		return reply.ddpItems().isEmpty() && fitsChunkless(reply.message());
	}

	private boolean fitsChunkless(ByteBuffer message) {
		int threshold = this.connection.inlineSizes().sendThreshold(this.version);
		return this.pooled && this.reusable && RpcRdmaEndpoint.CHUNKLESS_HEADER_LENGTH + message.remaining() <= threshold;
	}

	private CompletableFuture<Void> replyGenerally(OutboundReply reply) {
		// The general path keeps references to this context beyond the reply (the RDMA_DONE
		// timer): never reuse it.
		this.reusable = false;
		try {
			return this.connection.sendReply(this, reply);
		}
		finally {
			// The reply was copied out; the RPC layer is done with the call's message.
			releaseMessage();
		}
	}

	private void sendChunklessReply(ByteBuffer message) {
		if (!this.connection.isUsable()) {
			this.connection.requestFinished();
			TransportException cause = this.connection.failure();
			settle((cause != null) ? cause : new TransportClosedException("The connection is closed"));
			return;
		}
		this.sendCompleted = false;
		// The credit is free again before the requester can see the reply (RFC 5666 §3.3).
		this.connection.requestFinished();
		try {
			this.connection.sendChunkless(this.xid, this.version, this.connection.grant(), message, this);
		}
		catch (TransportException ex) {
			// Not sent: the requester learns it with RDMA_ERROR, as on the general path.
			this.connection.requestUnfinished();
			this.connection.answerWithError(this.version, this.xid);
			if (!this.sendCompleted) {
				// No SEND buffer was leased, so no completion will tell.
				settle(ex);
			}
		}
	}

	@Override
	public void sending(RegisteredBuffer buffer) {
		this.sendBuffer = buffer;
	}

	/** The reply's Send completed, failed or was flushed: on the completion thread. */
	@Override
	public void accept(WorkCompletion wc) {
		RegisteredBuffer buffer = this.sendBuffer;
		this.sendBuffer = null;
		this.sendCompleted = true;
		if (buffer != null) {
			buffer.release();
		}
		settle(wc.isSuccess() ? null : new TransportClosedException("The reply could not be sent: " + wc.status()));
	}

	/** Tells whoever waits for the reply and drops the transport's hold. */
	private void settle(Throwable failure) {
		ReplyListener whenSent = this.listener;
		CompletableFuture<Void> done = this.sent;
		this.listener = null;
		this.sent = null;
		int answeredXid = this.xid;
		releaseHold();
		if (whenSent != null) {
			whenSent.replied(answeredXid, failure);
		}
		else if (done != null) {
			if (failure == null) {
				done.complete(null);
			}
			else {
				done.completeExceptionally(failure);
			}
		}
	}

	void releaseMessage() {
		RegisteredBuffer buffer = this.placed;
		if (buffer != null) {
			this.placed = null;
			buffer.release();
			this.connection.releasePlacement(this.placedShare);
		}
	}

	@Override
	public CompletableFuture<Void> replyTooLarge(long size) {
		if (!this.answered.compareAndSet(false, true)) {
			return CompletableFuture.failedFuture(alreadyAnswered());
		}
		// RFC 8166 §4.5.3: a reply the requester's resources cannot hold is refused with
		// RDMA_ERROR at once rather than dropped.
		this.connection.answerWithError(this.version, this.xid);
		releaseHold();
		return this.connection.isUsable() ? CompletableFuture.completedFuture(null)
				: CompletableFuture.failedFuture(this.connection.failure());
	}

	@Override
	public InetSocketAddress peerAddress() {
		return this.connection.remoteAddress();
	}

	@Override
	public BackwardCalls backwardCalls() {
		return this.connection.backward();
	}

	@Override
	public Object connection() {
		return this.connection;
	}

	@Override
	public CompletableFuture<Void> connectionClosed() {
		return this.connection.closeFuture();
	}

	@Override
	public ConfigRdmaReply configureInBand(ConfigRdmaRequest request) {
		return this.connection.configureInBand(request);
	}

	@Override
	public void drop() {
		if (this.answered.compareAndSet(false, true)) {
			releaseMessage();
			this.connection.requestFinished();
			releaseHold();
		}
	}

	@Override
	public void release() {
		if (this.released.compareAndSet(false, true)) {
			releaseHold();
		}
	}

	private void releaseHold() {
		if (this.pooled && this.holds.decrementAndGet() == 0 && this.reusable) {
			this.connection.giveBack(this);
		}
	}

}

package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The requester side of the backward direction on a responder's connection (RFC 8167 §3.2):
 * the server calls the client that connected to it. An {@link RpcTransport}, so the RPC
 * layer's client runs on it unchanged.
 *
 * <ul>
 * <li>Credits: a window of its own, apart from the forward direction's grant (RFC 8167 §4.1:
 * forward and backward credits are accounted separately). It starts at one credit and
 * follows the rdma_credit of the requester's backward-direction replies; each call asks for
 * at most {@code maxCredits}, the receives this responder posted for those replies
 * (§4.3). A client that never answers holds only these credits: forward calls and their
 * replies go on.</li>
 * <li>Inline only: a call goes as one RDMA_MSG within the requester's receive size (§4.2); no
 * chunks are offered or accepted in this direction (§7: only an Upper-Layer Binding may
 * allow them, and none does here).</li>
 * <li>A connection that fails fails every backward call with its cause; calls are never
 * retransmitted by the transport (§4.4).</li>
 * </ul>
 */
public final class BackwardCalls implements RpcTransport {

	private final RpcRdmaServerConnection connection;

	private final CreditWindow credits;

	private final int maxCredits;

	private final ConcurrentHashMap<Integer, CallCompletion> pending = new ConcurrentHashMap<>();

	private final LongAdder sent = new LongAdder();

	private final LongAdder unmatchedReplies = new LongAdder();

	BackwardCalls(RpcRdmaServerConnection connection, int maxCredits) {
		this.connection = connection;
		this.maxCredits = maxCredits;
		this.credits = new CreditWindow(maxCredits);
	}

	@Override
	public CompletableFuture<InboundReply> call(OutboundCall call) {
		FutureCompletion future = new FutureCompletion(call.xid());
		call(call, future);
		return future;
	}

	@Override
	public void call(OutboundCall call, CallCompletion completion) {
		TransportException failure = this.connection.failure();
		if (failure != null) {
			completion.failed(failure);
			return;
		}
		if (!call.readChunkItems().isEmpty() || !call.writeChunkSizes().isEmpty() || !call.registeredItems().isEmpty()) {
			completion.failed(new MessageTooLargeException("Backward-direction calls travel inline only (RFC 8167 §7):"
					+ " send the bulk data in the forward direction, or as a smaller argument"));
			return;
		}
		int version = this.connection.version();
		if (version == 0) {
			completion.failed(new TransportException("The client has sent no call yet, so the connection's"
					+ " RPC-over-RDMA version is not known; call back after its first call"));
			return;
		}
		int limit = this.connection.inlineSizes().sendThreshold(version) - RpcRdmaEndpoint.CHUNKLESS_HEADER_LENGTH;
		if (call.message().remaining() > limit) {
			completion.failed(new MessageTooLargeException("The backward-direction call XID 0x"
					+ Integer.toHexString(call.xid()) + " takes " + call.message().remaining() + " bytes, more than the "
					+ limit + " the client receives inline (RFC 8167 §4.2); make its arguments smaller"));
			return;
		}
		int xid = call.xid();
		if (this.pending.putIfAbsent(xid, completion) != null) {
			completion.failed(new IllegalArgumentException(
					"XID 0x" + Integer.toHexString(xid) + " is already outstanding in the backward direction"));
			return;
		}
		if (this.credits.tryAcquire()) {
			// A credit free now: sent at once, straight from the caller's buffer.
			send(xid, version, call.message(), completion);
			return;
		}
		// Copied now: the RPC layer may reuse its buffer once this returns.
		ByteBuffer message = ByteBuffer.allocate(call.message().remaining());
		message.put(call.message().duplicate()).flip();
		this.credits.acquire(this.connection.config.creditWaitTimeout()).whenComplete((ignored, error) -> {
			if (error != null) {
				if (this.pending.remove(xid, completion)) {
					completion.failed(error);
				}
				return;
			}
			send(xid, version, message, completion);
		});
	}

	/** Sends a call that holds a credit; the credit goes back if the call is not sent. */
	private void send(int xid, int version, ByteBuffer message, CallCompletion completion) {
		if (!this.pending.containsKey(xid)) {
			// Failed meanwhile (the connection went down): nothing to send.
			this.credits.release();
			return;
		}
		try {
			this.connection.postBackwardReceives();
			this.connection.sendChunkless(xid, version, this.maxCredits, message);
			this.sent.increment();
		}
		catch (RuntimeException ex) {
			if (this.pending.remove(xid, completion)) {
				this.credits.release();
				completion.failed((ex instanceof TransportException) ? ex
						: new TransportException("Sending backward-direction call XID 0x" + Integer.toHexString(xid)
								+ " failed: " + ex, ex));
			}
		}
	}

	/**
	 * The requester replied: its rdma_credit is its backward-direction grant (RFC 8167 §4.1).
	 * @return whether a call was waiting for it
	 */
	boolean onReply(int xid, int version, int grant, ByteBuffer message) {
		CallCompletion completion = this.pending.remove(xid);
		if (completion == null) {
			// Late (its call failed already) or never asked for: nothing to tell.
			this.unmatchedReplies.increment();
			return false;
		}
		this.credits.updateGrant(grant);
		this.credits.release();
		completion.replied(version, message, List.of(), null);
		return true;
	}

	/** The requester refused a backward call with RDMA_ERROR, or replied with what cannot be taken. */
	boolean onError(int xid, TransportException error) {
		CallCompletion completion = this.pending.remove(xid);
		if (completion == null) {
			return false;
		}
		this.credits.release();
		completion.failed(error);
		return true;
	}

	void fail(TransportException cause) {
		this.credits.close(cause);
		List<CallCompletion> failed = new ArrayList<>(this.pending.values());
		this.pending.clear();
		for (CallCompletion completion : failed) {
			try {
				completion.failed(cause);
			}
			catch (RuntimeException ex) {
				// One completion's own failure must not keep the others from being told.
			}
		}
	}

	/** @return backward-direction calls awaiting their replies or a credit */
	public int pendingCalls() {
		return this.pending.size();
	}

	/** @return the backward-direction credits the client grants now */
	public int grant() {
		return this.credits.limit();
	}

	/** @return backward-direction calls sent so far */
	public long sentCalls() {
		return this.sent.sum();
	}

	/** @return replies that matched no backward call (late or never asked for) */
	public long unmatchedReplies() {
		return this.unmatchedReplies.sum();
	}

	@Override
	public boolean isOpen() {
		return this.connection.isOpen();
	}

	@Override
	public TransportStats stats() {
		return this.connection.stats();
	}

	@Override
	public CompletableFuture<Void> closeFuture() {
		return this.connection.closeFuture();
	}

	/** Closes the connection it runs on, forward direction included. */
	@Override
	public void close() {
		this.connection.close();
	}

	/** @return the requester's address */
	public java.net.InetSocketAddress peerAddress() {
		return this.connection.remoteAddress();
	}

	@Override
	public String toString() {
		return "backward direction to " + this.connection.remoteAddress();
	}

}

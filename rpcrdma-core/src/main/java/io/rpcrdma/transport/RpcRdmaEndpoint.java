package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.oncrpc.VersionRange;
import io.rpcrdma.protocol.HeaderDecodeResult;
import io.rpcrdma.protocol.RdmaErrorHeader;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.protocol.TransportHeaderDecoder;
import io.rpcrdma.protocol.TransportHeaderEncoder;
import io.rpcrdma.transport.trace.ConnectionTrace;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.ConnectionEvent;
import io.rpcrdma.verbs.ConnectionEventType;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.WorkCompletion;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * What both ends of an RPC-over-RDMA connection share: the queue pair and its completion
 * queue, the posted receives (RFC 5666 §3.3: one per credit, reposted as soon as a message
 * was copied out), Sends, and connection failure. Completions of one connection are handled
 * one at a time on the provider's thread, which never blocks here. The rest is composed:
 * {@link ReceiveQueue} keeps the receives posted, {@link WorkRequests} tracks work requests by wr_id, {@link InlineSizes} the RFC 8797 inline
 * thresholds, {@link ChunkTransfers} moves chunk data with RDMA Read and Write, and
 * {@link OperationWatch} fails a connection whose peer leaves work unanswered.
 */
abstract class RpcRdmaEndpoint {

	/**
	 * rdma_xid, rdma_vers, rdma_credit, rdma_proc and three empty chunk lists: the header of
	 * every inline message without chunks (RFC 8166 §4.1.2, draft §4.2).
	 */
	static final int CHUNKLESS_HEADER_LENGTH = ChunklessHeader.LENGTH;

	final TransportConfig config;

	final RegisteredMemoryPool pool;

	final TransportHeaderDecoder decoder;

	final CompletionQueue cq;

	final QueuePair qp;

	final CompletableFuture<Void> closeFuture = new CompletableFuture<>();

	/** Completes once the connection is down and every buffer its receives and operations held is back. */
	private final CompletableFuture<Void> released = new CompletableFuture<>();

	/** The RDMA connection once established, set once by {@link #established}. */
	private volatile RdmaConnection connection;

	final TransportCounters counters = new TransportCounters();

	/** This connection's Flight Recorder events, written only while a recording enables them. */
	final ConnectionTrace trace = new ConnectionTrace();

	/** Keeps this side's RDMA Reads within its ORD and the peer's IRD. */
	final ReadThrottle readThrottle;

	/** Keeps the bulk memory this connection's Read chunks hold within its share. */
	final FifoAdmission bulkShare;

	/** The inline thresholds (RFC 8166 §3.3.2, RFC 8797). */
	private final InlineSizes inlineSizes;

	/** RDMA Reads of the peer's Read chunks and RDMA Writes into its Write and Reply chunks. */
	private final ChunkTransfers transfers;

	/** The receives kept posted, one per credit (RFC 5666 §3.3), as many as {@link #receiveTarget()}. */
	private final ReceiveQueue receives;

	/** Outstanding work requests by wr_id, and the Sends kept for reposting. */
	private final WorkRequests workRequests;

	private final WorkCompletion[] polled = new WorkCompletion[32];

	/** Whether a consumed receive awaits {@link #replenish} (completion thread). */
	private boolean receiveInHand;

	private final AtomicBoolean failed = new AtomicBoolean();

	private volatile TransportException failure;

	/** Fails the connection when its peer leaves posted work unanswered ({@link PeerLimits#operationTimeout()}). */
	private final OperationWatch watch;

	/**
	 * @param config the settings; {@link TransportConfig#receiveCount()} is the most receives
	 * ever posted at once
	 * @param firstReceives the receives posted before the connection is accepted or connects
	 */
	RpcRdmaEndpoint(RdmaProvider provider, RegisteredMemoryPool pool, TransportConfig config, int firstReceives) {
		this.config = config;
		this.pool = pool;
		this.decoder = new TransportHeaderDecoder(config.headerLimits(), config.supportedVersions());
		this.readThrottle = new ReadThrottle(config.maxOutstandingReads(), this.counters);
		this.bulkShare = new FifoAdmission(config.peerLimits().bulkShare());
		int receiveSize = config.receiveBufferSize();
		this.inlineSizes = new InlineSizes(config, receiveSize, provider.capabilities().remoteInvalidation());
		if (pool.largestBufferSize(BufferRole.RECEIVE) < receiveSize) {
			throw new IllegalArgumentException("The memory pool's receive buffers hold "
					+ pool.largestBufferSize(BufferRole.RECEIVE) + " bytes but the inline threshold needs " + receiveSize
					+ "; build the pool with MemoryPoolConfig.defaults(" + receiveSize + ")");
		}
		int count = config.receiveCount();
		int sendDepth = SendQueueBudget.depth(config);
		// Every completion is one work request's, posted to one of the two queues.
		this.cq = provider.createCompletionQueue(sendDepth + count, this::onCompletion);
		try {
			this.qp = provider.createQueuePair(
					QueuePairAttributes.of(pool.protectionDomain(), this.cq).withQueueDepths(sendDepth, count));
		}
		catch (RuntimeException ex) {
			// The provider's queue pair limit, say: the queue made for it has no use.
			this.cq.close();
			throw ex;
		}
		this.workRequests = new WorkRequests(this.qp, this.trace, this::queuedPostRefused, this::releaseIfSettled);
		this.transfers = new ChunkTransfers(pool, config, this.counters, this.readThrottle, this.workRequests);
		ReceiveQueue queue = null;
		try {
			queue = new ReceiveQueue(this.qp, pool, count, receiveSize, this.trace);
			this.receives = queue;
			this.cq.requestNotification();
			queue.postFirst(Math.min(firstReceives, count));
			this.watch = new OperationWatch(this, config.peerLimits(), this.counters);
		}
		catch (RuntimeException ex) {
			this.qp.close();
			this.cq.close();
			if (queue != null) {
				queue.releaseAll();
			}
			throw ex;
		}
	}

	// ---- RFC 8797 --------------------------------------------------------------------------

	/** @return the inline thresholds: this side's, the peer's, and what they allow each way */
	InlineSizes inlineSizes() {
		return this.inlineSizes;
	}

	/**
	 * Takes the peer's {@code maxrdmaread} learnt with CCP (RFC 5666 §6.2).
	 * @param peerReadDepth the peer's value; zero allows no RDMA Read
	 */
	void applyPeerReadDepth(long peerReadDepth) {
		this.transfers.applyPeerReadDepth(peerReadDepth);
	}

	/** @return what moves chunk data with RDMA Read and RDMA Write on this connection */
	ChunkTransfers transfers() {
		return this.transfers;
	}

	/**
	 * Both inline thresholds of a version, for management output.
	 * @param version 1 or 2
	 * @return what this side sends and receives inline in that version
	 */
	public InlineThresholds inlineThresholds(int version) {
		return new InlineThresholds(version, this.inlineSizes.sendThreshold(version),
				this.inlineSizes.receiveThreshold(version));
	}

	/** @return the versions this side speaks on this connection */
	public VersionRange supportedVersions() {
		return this.config.supportedVersions();
	}

	// ---- completions -------------------------------------------------------------------------

	private void onCompletion(CompletionQueue queue) {
		drain(queue);
		if (!queue.isClosed()) {
			queue.requestNotification();
			drain(queue);
		}
	}

	private void drain(CompletionQueue queue) {
		while (!queue.isClosed()) {
			int n;
			try {
				n = queue.poll(this.polled);
			}
			catch (RuntimeException ex) {
				fail(new TransportClosedException("Completion queue failed: " + ex.getMessage()));
				return;
			}
			if (n == 0) {
				return;
			}
			for (int i = 0; i < n; i++) {
				dispatch(this.polled[i]);
			}
		}
	}

	private void dispatch(WorkCompletion wc) {
		try {
			dispatchOne(wc);
		}
		finally {
			if (this.receives.posted() == 0 && this.workRequests.isSettled()) {
				// Everything was flushed and its buffers released: the queue has no more use.
				this.cq.close();
				this.released.complete(null);
			}
		}
	}

	private void dispatchOne(WorkCompletion wc) {
		this.trace.completed(wc);
		long wrId = wc.wrId();
		if (ReceiveQueue.isReceive(wrId)) {
			onReceive(ReceiveQueue.index(wrId), wc);
			return;
		}
		Object operation = this.workRequests.remove(wrId);
		this.watch.completed();
		if (operation != null) {
			if (!wc.isSuccess() && !this.failed.get()) {
				fail(new TransportClosedException("A " + wc.opcode() + " work request failed: " + wc.status()
						+ ((wc.detail() != null) ? " (" + wc.detail() + ")" : "")));
			}
			try {
				WorkRequests.complete(operation, wc);
			}
			catch (RuntimeException ex) {
				fail(new TransportClosedException("Handling a completion failed: " + ex));
			}
		}
		// Every signaled work request completes once, whatever its status: its send-queue slot
		// is free, and work waiting for one is posted now.
		this.workRequests.completed();
	}

	/** Waiting work the queue pair refused when its turn came: nobody else is there to be told. */
	private void queuedPostRefused(TransportException cause) {
		fail(cause);
		releaseIfSettled();
	}

	/** After fail(), a refusal gave back the last operation: no flush completion will say so. */
	private void releaseIfSettled() {
		if (this.receives.posted() == 0 && this.workRequests.isSettled()) {
			this.released.complete(null);
		}
	}

	private void onReceive(int index, WorkCompletion wc) {
		RegisteredBuffer buffer = this.receives.completed(index);
		this.receiveInHand = true;
		if (!wc.isSuccess()) {
			this.receiveInHand = false;
			this.receives.retire(index);
			if (!this.failed.get()) {
				fail(new TransportClosedException("A receive failed: " + wc.status()
						+ ((wc.detail() != null) ? " (" + wc.detail() + ")" : "")));
			}
			return;
		}
		int length = wc.byteLength();
		boolean invalidated = wc.withInvalidate();
		if (!invalidated && ChunklessHeader.matches(buffer.buffer(), length, this.config.supportedVersions())) {
			boolean consumed;
			try {
				consumed = acceptChunkless(buffer.buffer(), length);
			}
			catch (RuntimeException ex) {
				replenish(index);
				fail(new TransportClosedException("Handling a received message failed: " + ex));
				return;
			}
			if (consumed) {
				// The subclass copied what it needed straight out of the registered buffer:
				// repost (RFC 5666 §3.3: the credit is a posted receive), then tell the upper layer.
				replenish(index);
				try {
					deliverChunkless();
				}
				catch (RuntimeException ex) {
					fail(new TransportClosedException("Handling a received message failed: " + ex));
				}
				return;
			}
		}
		// Copy the message out and repost at once (RFC 5666 §3.3: the credit is a posted
		// receive); the copy is what the upper layer gets to own.
		byte[] copy = new byte[length];
		buffer.buffer().get(0, copy, 0, length);
		int invalidatedStag = wc.invalidatedStag();
		ByteBuffer message = ByteBuffer.wrap(copy);
		HeaderDecodeResult decoded;
		try {
			decoded = this.decoder.decode(message.duplicate());
			// Told before the repost, so that the receives posted follow what this message took.
			arrived(decoded, message);
		}
		catch (RuntimeException ex) {
			replenish(index);
			fail(new TransportClosedException("Handling a received message failed: " + ex));
			return;
		}
		if (!replenish(index)) {
			return;
		}
		if (invalidated) {
			this.counters.invalidatedByPeer.increment();
		}
		try {
			onMessage(decoded, message, invalidated ? invalidatedStag : 0);
		}
		catch (RuntimeException ex) {
			fail(new TransportClosedException("Handling a received message failed: " + ex));
		}
	}

	/**
	 * A consumed receive is posted again while fewer than {@link #receiveTarget()} are
	 * posted, or else its buffer goes back to the pool; receives are then added up to the
	 * target (RFC 8166 §3.3.1: receives follow the credits).
	 * @return whether the receives are as they should be (or released because the connection
	 * failed)
	 */
	private boolean replenish(int index) {
		this.receiveInHand = false;
		if (this.failed.get()) {
			this.receives.retire(index);
			return true;
		}
		try {
			int target = receiveTarget();
			if (this.receives.posted() < target) {
				this.receives.repost(index);
				this.receives.fill(target);
			}
			else {
				this.receives.retire(index);
			}
			return true;
		}
		catch (RuntimeException ex) {
			this.receives.retire(index);
			fail(new TransportClosedException("Reposting a receive failed: " + ex.getMessage()));
			return false;
		}
	}

	/**
	 * Posts receives up to {@code target} before a larger grant can be used; called on the
	 * completion thread. A queue pair that refuses one fails the connection.
	 * @param target how many receives should be posted
	 */
	void postReceivesFor(int target) {
		if (this.failed.get()) {
			return;
		}
		try {
			this.receives.fill(target);
		}
		catch (RuntimeException ex) {
			fail(new TransportClosedException("Posting a receive failed: " + ex.getMessage()));
		}
	}

	/**
	 * Posts receives up to {@code target} from a thread other than the completion thread,
	 * before a Send whose answer needs them.
	 * @param target how many receives should be posted
	 * @return whether they are: {@code false} if the pool's receive budget is spent
	 * @throws TransportException if the connection failed, or does as the queue pair refuses one
	 */
	boolean postReceivesNow(int target) {
		if (this.failed.get()) {
			throw new TransportClosedException("The connection failed: " + this.failure);
		}
		try {
			return this.receives.tryFill(target);
		}
		catch (RuntimeException ex) {
			TransportClosedException failure = new TransportClosedException("Posting a receive failed: " + ex.getMessage());
			fail(failure);
			throw failure;
		}
	}

	/**
	 * How many receives this side wants posted now: what the peer may still send it under
	 * the credits in force, and a few for messages outside them. Asked on the completion
	 * thread after each message.
	 * @return the target; fewer are posted only while the pool's receive budget is spent
	 */
	abstract int receiveTarget();

	/**
	 * A message other than a chunk-less one {@link #acceptChunkless consumed} arrived and was
	 * decoded; called before its receive is reposted, so that a subclass counting what the peer
	 * may still send counts it first. Runs on the completion thread.
	 * @param result the decoded header
	 * @param message the whole message
	 */
	void arrived(HeaderDecodeResult result, ByteBuffer message) {
	}

	/**
	 * A chunk-less RDMA_MSG arrived (see {@link ChunklessHeader#matches}); the receive buffer is
	 * reposted as soon as this returns, so whatever is kept must be copied out now. Runs on the
	 * completion thread. If it returns {@code true}, {@link #deliverChunkless()} runs next, after
	 * the repost.
	 * @param received the registered receive buffer, big-endian, the message at offset 0
	 * @param length the message's length, header included
	 * @return whether the message was consumed; {@code false} sends it through
	 * {@link #onMessage} as any other
	 */
	boolean acceptChunkless(ByteBuffer received, int length) {
		return false;
	}

	/** Finishes what {@link #acceptChunkless} consumed, once the receive is posted again. */
	void deliverChunkless() {
	}

	/**
	 * A message arrived.
	 * @param result the decoded header
	 * @param message the whole message, header included
	 * @param invalidatedStag the STag the peer invalidated with Send With Invalidate, or 0
	 */
	abstract void onMessage(HeaderDecodeResult result, ByteBuffer message, int invalidatedStag);

	// ---- posting -----------------------------------------------------------------------------

	/** @return whether work requests are outstanding: the operation watch's question */
	boolean hasOperations() {
		return !this.workRequests.isEmpty();
	}

	/**
	 * Leases a buffer without blocking (completion handlers must not wait).
	 */
	RegisteredBuffer lease(BufferRole role, int length) {
		return PoolLeases.lease(this.pool, role, length);
	}

	/**
	 * The STag under which this side advertises a chunk buffer in a chunk list (RFC 8166
	 * §3.4), its region offered to this connection alone: until the buffer is released, which
	 * gives it a new STag, no other connection reaches it, even knowing the STag (RFC 8166 §8,
	 * RFC 5042 §5.1).
	 * @param buffer a {@link BufferRole#READ_CHUNK} or {@link BufferRole#WRITE_CHUNK} buffer
	 * leased for one call
	 * @return its STag
	 */
	int advertise(RegisteredBuffer buffer) {
		buffer.region().offerTo(this.qp);
		return buffer.stag();
	}

	/**
	 * Sends a transport header followed by a payload as one Send.
	 * @param header the header
	 * @param payload the bytes after it, or {@code null}
	 * @param invalidateStag the peer's STag to invalidate, or 0
	 * @param done told the outcome, on the completion thread; {@code null} for none
	 */
	void sendMessage(TransportHeader header, ByteBuffer payload, int invalidateStag, Consumer<Boolean> done) {
		int headerLength = TransportHeaderEncoder.encodedLength(header);
		int payloadLength = (payload != null) ? payload.remaining() : 0;
		count(header, payloadLength);
		RegisteredBuffer buffer = lease(BufferRole.SEND, headerLength + payloadLength);
		XdrEncoder encoder = new XdrEncoder(buffer.buffer().clear());
		TransportHeaderEncoder.encode(header, encoder);
		if (payload != null) {
			buffer.buffer().put(headerLength, payload, payload.position(), payloadLength);
		}
		long wrId = (done == null) ? this.workRequests.track(buffer) : this.workRequests.register((wc) -> {
			buffer.release();
			done.accept(wc.isSuccess());
		});
		ScatterGatherEntry sge = ScatterGatherEntry.of(buffer.region(), buffer.offset(), headerLength + payloadLength);
		this.counters.bytesSent.add(headerLength + payloadLength);
		SendWorkRequest request = (invalidateStag != 0) ? SendWorkRequest.sendWithInvalidate(wrId, invalidateStag, sge)
				: SendWorkRequest.send(wrId, sge);
		postCarryingGrant(buffer, request, header);
	}

	/**
	 * Posts a Send whose rdma_credit (the third word, RFC 8166 §4.1) this side may set to its
	 * grant at the last moment: a responder's replies. This does not set it.
	 * @param buffer the SEND buffer, the transport header at offset 0
	 * @param request the Send
	 * @param header the header encoded in the buffer, or {@code null} for a chunk-less RDMA_MSG
	 */
	void postCarryingGrant(RegisteredBuffer buffer, SendWorkRequest request, TransportHeader header) {
		this.workRequests.post(request);
	}

	/**
	 * Sends a chunk-less RDMA_MSG (RDMA2_MSG in Version 2) and its payload as one Send, writing
	 * the header's seven words straight into the SEND buffer: the bytes
	 * {@link #sendMessage} would send for {@code RdmaMsg(xid, credits, ChunkLists.EMPTY)},
	 * counted alike, without a header record, an encoder or a completion lambda.
	 * @param xid rdma_xid
	 * @param version rdma_vers, 1 or 2
	 * @param credits rdma_credit
	 * @param payload the RPC message between position and limit, read without moving them
	 */
	void sendChunkless(int xid, int version, int credits, ByteBuffer payload) {
		sendChunkless(xid, version, credits, payload, null);
	}

	/**
	 * {@link #sendChunkless(int, int, int, ByteBuffer)}, telling {@code owner} when the Send
	 * completes (successfully, failed or flushed): the owner is the tracked operation itself,
	 * so nothing is allocated for it, and it releases the SEND buffer it was handed.
	 * @param xid rdma_xid
	 * @param version rdma_vers, 1 or 2
	 * @param credits rdma_credit
	 * @param payload the RPC message between position and limit, read without moving them
	 * @param owner told once, or {@code null} to release the buffer silently
	 * @throws TransportException if no SEND buffer is free or the Send cannot be posted (the
	 * owner was then already told if it had been handed the buffer)
	 */
	void sendChunkless(int xid, int version, int credits, ByteBuffer payload, SendOwner owner) {
		int payloadLength = payload.remaining();
		int length = CHUNKLESS_HEADER_LENGTH + payloadLength;
		RegisteredBuffer buffer = lease(BufferRole.SEND, length);
		ByteBuffer out = buffer.buffer();
		ChunklessHeader.write(out, xid, version, credits);
		out.put(CHUNKLESS_HEADER_LENGTH, payload, payload.position(), payloadLength);
		if (payloadLength > 0) {
			this.counters.inlineMessages.increment();
		}
		this.counters.bytesSent.add(length);
		if (owner != null) {
			owner.sending(buffer);
			postCarryingGrant(buffer, this.workRequests.chunklessSend(buffer, length, owner), null);
		}
		else {
			this.workRequests.post(this.workRequests.chunklessSend(buffer, length, buffer));
		}
	}

	/**
	 * Who is told when a chunk-less Send completes: handed the SEND buffer before the Send is
	 * posted, it releases it in {@link #accept(WorkCompletion)}, which runs exactly once, on the
	 * completion thread or, if posting failed, on the posting thread.
	 */
	interface SendOwner extends Consumer<WorkCompletion> {

		/**
		 * @param buffer the SEND buffer, leased until the Send completes
		 */
		void sending(RegisteredBuffer buffer);

	}

	/** Counts a message sent, by its header ({@link TransportCounters#sent}), and traces an RDMA_ERROR. */
	void count(TransportHeader header, int payloadLength) {
		this.counters.sent(header, payloadLength);
		if (header instanceof RdmaErrorHeader error) {
			this.trace.errorSent(error);
		}
	}

	/**
	 * Whether calls are waiting for bulk memory that connections hold: the operation watch
	 * then uses {@link PeerLimits#operationTimeoutUnderPressure()}.
	 * @return {@code false} unless a subclass knows better
	 */
	boolean underMemoryPressure() {
		return false;
	}

	// ---- connection state ------------------------------------------------------------------

	void onConnectionEvent(RdmaConnection source, ConnectionEvent event) {
		if (event.type() == ConnectionEventType.DISCONNECTED || event.type() == ConnectionEventType.ERROR) {
			fail(new TransportClosedException("The connection went down: " + event.detail()));
		}
	}

	/**
	 * The connection was established: failing from now on disconnects it.
	 * @param established the provider's connection
	 */
	void established(RdmaConnection established) {
		this.connection = established;
		this.trace.connected(role(), established.localAddress(), established.remoteAddress());
	}

	/** @return {@code requester} or {@code responder}, as trace events name this side */
	abstract String role();

	/** @return whether the connection was established once */
	boolean wasEstablished() {
		return this.connection != null;
	}

	/** @return whether the connection has not failed */
	boolean isUsable() {
		return !this.failed.get();
	}

	/** @return why the connection failed, or {@code null} */
	TransportException failure() {
		return this.failure;
	}

	/**
	 * Takes the connection down once: disconnects and lets the subclass fail its work.
	 * @param cause why
	 */
	void fail(TransportException cause) {
		if (!this.failed.compareAndSet(false, true)) {
			return;
		}
		this.failure = cause;
		this.trace.disconnected(cause.getMessage());
		this.watch.cancel();
		try {
			this.readThrottle.close();
			this.bulkShare.close();
			onFailure(cause);
		}
		finally {
			RdmaConnection current = this.connection;
			if (current != null) {
				current.disconnect();
			}
			// Destroying the queue pair flushes every posted receive and work request; their
			// completions release the buffers; work waiting for the send queue is flushed alike.
			this.qp.close();
			this.workRequests.close();
			// Nothing left to flush: no completion will come to say so.
			releaseIfSettled();
			this.closeFuture.complete(null);
		}
	}

	/**
	 * Completes once the connection is closed and the flush completions of everything it had
	 * posted (its receives, and sends, reads and writes in flight) have come and released their
	 * registered buffers to the pool: after it, closing the pool finds none of this
	 * connection's buffers leased. Later than {@code closeFuture}, which completes when the
	 * connection goes down. A provider that never flushes leaves it incomplete, so wait for it
	 * with a bound.
	 * @return the future
	 */
	public CompletableFuture<Void> releasedFuture() {
		return this.released;
	}

	/**
	 * The connection failed; fail everything outstanding.
	 * @param cause why
	 */
	abstract void onFailure(TransportException cause);

	/**
	 * What this connection conveyed so far.
	 * @return a snapshot of the counters
	 */
	public TransportStats stats() {
		return this.counters.snapshot(this.workRequests.budget());
	}

	/** @return the number of receives currently posted */
	int postedReceives() {
		return this.receives.posted();
	}

	/**
	 * @return the receives posted, and the one whose message is being handled and which is
	 * posted again (or given back) next: what {@link #receiveTarget()} is measured against
	 * (completion thread)
	 */
	int receivesKept() {
		return this.receives.posted() + (this.receiveInHand ? 1 : 0);
	}

}

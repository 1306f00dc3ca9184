package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.oncrpc.VersionRange;
import io.rpcrdma.protocol.ChunkedHeader;
import io.rpcrdma.protocol.HeaderDecodeResult;
import io.rpcrdma.protocol.RdmaDone;
import io.rpcrdma.protocol.RdmaErrorHeader;
import io.rpcrdma.protocol.RdmaSegment;
import io.rpcrdma.protocol.ReadChunk;
import io.rpcrdma.protocol.Rfc8797PrivateData;
import io.rpcrdma.protocol.RpcRdmaConstants;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.protocol.TransportHeaderDecoder;
import io.rpcrdma.protocol.TransportHeaderEncoder;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.ConnectionEvent;
import io.rpcrdma.verbs.ConnectionEventType;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.ReceiveWorkRequest;
import io.rpcrdma.verbs.RemoteAddress;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendOpcode;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.WorkCompletion;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * What both ends of an RPC-over-RDMA connection share: the queue pair and its completion
 * queue, the posted receives (RFC 5666 §3.3: one per credit, reposted as soon as a message
 * was copied out), work requests tracked by wr_id, RFC 8797 inline sizes, and connection
 * failure. Completions of one connection are handled one at a time on the provider's
 * thread, which never blocks here.
 */
abstract class RpcRdmaEndpoint {

	private static final long RECEIVE_TAG = 1L << 62;

	private static final int SEND_QUEUE_DEPTH = 512;

	/**
	 * rdma_xid, rdma_vers, rdma_credit, rdma_proc and three empty chunk lists: the header of
	 * every inline message without chunks (RFC 8166 §4.1.2, draft §4.2).
	 */
	static final int CHUNKLESS_HEADER_LENGTH = RpcRdmaConstants.FIXED_HEADER_LENGTH + 12;

	final TransportConfig config;

	final RegisteredMemoryPool pool;

	final TransportHeaderDecoder decoder;

	final CompletionQueue cq;

	final QueuePair qp;

	final CompletableFuture<Void> closeFuture = new CompletableFuture<>();

	/** Completes once the connection is down and every buffer its receives and operations held is back. */
	private final CompletableFuture<Void> released = new CompletableFuture<>();

	volatile RdmaConnection connection;

	final TransportCounters counters = new TransportCounters();

	/** Keeps this side's RDMA Reads within its ORD and the peer's IRD. */
	final ReadThrottle readThrottle;

	/** Keeps the bulk memory this connection's Read chunks hold within its share. */
	final FifoAdmission bulkShare;

	/** The peer said in band that it allows no RDMA Read (CCP maxrdmaread 0). */
	private volatile boolean readsForbidden;

	/** The peer's RFC 8797 data, or {@code null} if it sent none. */
	volatile Rfc8797PrivateData peerPrivateData;

	private final RegisteredBuffer[] receives;

	private final ReceiveWorkRequest[] receiveRequests;

	private final AtomicInteger postedReceives = new AtomicInteger();

	/**
	 * Outstanding work requests by wr_id, guarded by itself: a {@code Consumer<WorkCompletion>}
	 * to tell, or a SEND buffer that its completion only releases, success, failure or flush
	 * alike (no lambda per Send).
	 */
	private final LongKeyTable<Object> operations = new LongKeyTable<>(64);

	/**
	 * The last chunk-less Send posted from each SEND buffer, by the buffer's address, guarded
	 * by {@link #operations}. A work request is immutable and may be posted again (see
	 * {@link SendWorkRequest}); its wr_id is unique while outstanding because the buffer stays
	 * leased until its completion. So a buffer that sends the same length again, as small
	 * calls do, posts the same request without allocating. One entry per buffer of the pool.
	 */
	private final LongKeyTable<SendWorkRequest> chunklessSends = new LongKeyTable<>(16);

	private final AtomicLong nextWrId = new AtomicLong(1);

	private final WorkCompletion[] polled = new WorkCompletion[32];

	private final AtomicBoolean failed = new AtomicBoolean();

	private volatile TransportException failure;

	// TransportConfig#receiveBufferSize, which loops over the versions: the thresholds ask per call.
	private final int receiveBufferSize;

	/**
	 * Send-queue completions so far (RDMA Reads, Sends, Writes): the progress the operation
	 * watch looks for. Written by whichever thread handles the connection's completions, one
	 * at a time; a lazy store, read by the timer.
	 */
	private final AtomicLong sendQueueCompletions = new AtomicLong();

	/** Fails the connection when its peer leaves posted work unanswered ({@link PeerLimits#operationTimeout()}). */
	private final ScheduledFuture<?> operationWatch;

	// Touched by the timer thread only.
	private long watchedCompletions = -1;

	private long stalledSince;

	private boolean idleAtLastLook = true;

	RpcRdmaEndpoint(RdmaProvider provider, RegisteredMemoryPool pool, TransportConfig config) {
		this.config = config;
		this.pool = pool;
		this.decoder = new TransportHeaderDecoder(config.headerLimits(), config.supportedVersions());
		this.readThrottle = new ReadThrottle(config.maxOutstandingReads(), this.counters);
		this.bulkShare = new FifoAdmission(config.peerLimits().bulkShare());
		int receiveSize = config.receiveBufferSize();
		this.receiveBufferSize = receiveSize;
		if (pool.largestBufferSize(BufferRole.RECEIVE) < receiveSize) {
			throw new IllegalArgumentException("The memory pool's receive buffers hold "
					+ pool.largestBufferSize(BufferRole.RECEIVE) + " bytes but the inline threshold needs " + receiveSize
					+ "; build the pool with MemoryPoolConfig.defaults(" + receiveSize + ")");
		}
		int count = config.receiveCount();
		this.cq = provider.createCompletionQueue(SEND_QUEUE_DEPTH + count + 16, this::onCompletion);
		try {
			this.qp = provider.createQueuePair(
					QueuePairAttributes.of(pool.protectionDomain(), this.cq).withQueueDepths(SEND_QUEUE_DEPTH, count));
		}
		catch (RuntimeException ex) {
			// The provider's queue pair limit, say: the queue made for it has no use.
			this.cq.close();
			throw ex;
		}
		this.receives = new RegisteredBuffer[count];
		this.receiveRequests = new ReceiveWorkRequest[count];
		try {
			for (int i = 0; i < count; i++) {
				RegisteredBuffer buffer = pool.tryLease(BufferRole.RECEIVE, receiveSize);
				if (buffer == null) {
					throw new TransportResourceException("The memory pool has no receive buffer left for receive " + i
							+ " of " + count + "; raise its limit or lower receiveCount", null);
				}
				this.receives[i] = buffer;
				this.receiveRequests[i] = ReceiveWorkRequest.of(RECEIVE_TAG | i,
						ScatterGatherEntry.of(buffer.region(), buffer.offset(), receiveSize));
			}
			this.cq.requestNotification();
			for (int i = 0; i < count; i++) {
				this.postedReceives.incrementAndGet();
				this.qp.postRecv(this.receiveRequests[i]);
			}
			// A quarter of the shorter timeout: a stall is seen at most a quarter late, under
			// memory pressure too.
			long period = Math.max(1_000_000, config.peerLimits().operationTimeoutUnderPressure().toNanos() / 4);
			this.operationWatch = TransportTimers.TIMER.scheduleWithFixedDelay(this::watchOperations, period, period,
					TimeUnit.NANOSECONDS);
		}
		catch (RuntimeException ex) {
			this.qp.close();
			this.cq.close();
			for (RegisteredBuffer buffer : this.receives) {
				if (buffer != null) {
					buffer.release();
				}
			}
			throw ex;
		}
	}

	// ---- RFC 8797 --------------------------------------------------------------------------

	/** @return the private data this side sends: its receive size and remote invalidation */
	PrivateData localPrivateData() {
		if (!this.config.privateData()) {
			return PrivateData.EMPTY;
		}
		int size = this.receiveBufferSize;
		return PrivateData.of(Rfc8797PrivateData.of(this.config.remoteInvalidate(), size, size).encode());
	}

	void acceptPeerPrivateData(PrivateData data) {
		if (!this.config.privateData()) {
			// Configured as if the provider could not carry it: the sizes come in band or not at all.
			return;
		}
		Optional<Rfc8797PrivateData> decoded = Rfc8797PrivateData.decode(data.bytes());
		this.peerPrivateData = decoded.orElse(null);
	}

	/**
	 * The most this side may send inline in a version (RFC 8797 §4: the smaller of what this
	 * side sends and what the peer receives; without private data, the version's default).
	 * @param version 1 or 2
	 * @return the threshold in bytes
	 */
	int sendThreshold(int version) {
		Rfc8797PrivateData peer = this.peerPrivateData;
		int ours = this.config.inlineThreshold(version);
		if (peer == null) {
			return Math.min(ours, defaultThreshold(version));
		}
		return Math.min(this.receiveBufferSize, peer.maxReceiveSize());
	}

	/**
	 * The most the peer may send this side inline: what this side receives, limited by what
	 * the peer said it sends.
	 * @param version 1 or 2
	 * @return the threshold in bytes
	 */
	int receiveThreshold(int version) {
		Rfc8797PrivateData peer = this.peerPrivateData;
		int ours = this.config.inlineThreshold(version);
		if (peer == null) {
			// Without private data or CCP the peer assumes the version's default of this side
			// (RFC 8166 §3.3.2, draft §2.3) and sends no more inline than that.
			return Math.min(ours, defaultThreshold(version));
		}
		return Math.min(this.receiveBufferSize, peer.maxSendSize());
	}

	/**
	 * Takes the peer's inline sizes learnt in band with CCP (RFC 5666 §6.2) exactly as if
	 * they had come as RFC 8797 private data: from then on the thresholds are the smaller of
	 * both sides' values. Whether the peer accepts Send With Invalidate is kept from its
	 * private data, if any; CCP does not say.
	 * @param peerMaxSend the most the peer sends inline
	 * @param peerMaxReceive the most the peer receives inline
	 */
	void applyInBandSizes(int peerMaxSend, int peerMaxReceive) {
		Rfc8797PrivateData previous = this.peerPrivateData;
		this.peerPrivateData = Rfc8797PrivateData.of(previous != null && previous.remoteInvalidate(),
				Math.max(Rfc8797PrivateData.MIN_SIZE, peerMaxSend), Math.max(Rfc8797PrivateData.MIN_SIZE, peerMaxReceive));
	}

	private static int defaultThreshold(int version) {
		return (version == RpcRdmaConstants.VERSION_2) ? TransportConfig.DEFAULT_INLINE_THRESHOLD_V2
				: TransportConfig.DEFAULT_INLINE_THRESHOLD_V1;
	}

	/**
	 * Takes the peer's {@code maxrdmaread} learnt with CCP (RFC 5666 §6.2): this side's Reads
	 * stay within the smaller of its ORD and the peer's IRD. Zero means the peer allows no
	 * RDMA Read at all; chunks that would need one are then refused.
	 * @param peerReadDepth the peer's value
	 */
	void applyPeerReadDepth(long peerReadDepth) {
		// Reads already admitted or waiting finish under a limit of at least one; only new
		// chunks are refused when the peer now allows none.
		this.readsForbidden = peerReadDepth == 0;
		this.readThrottle.limit((int) Math.max(1, Math.min(this.config.maxOutstandingReads(), peerReadDepth)));
	}

	/**
	 * Both inline thresholds of a version, for management output.
	 * @param version 1 or 2
	 * @return what this side sends and receives inline in that version
	 */
	public InlineThresholds inlineThresholds(int version) {
		return new InlineThresholds(version, sendThreshold(version), receiveThreshold(version));
	}

	/** @return the versions this side speaks on this connection */
	public VersionRange supportedVersions() {
		return this.config.supportedVersions();
	}

	/** @return whether the peer said it accepts Send With Invalidate */
	boolean peerAcceptsInvalidate() {
		Rfc8797PrivateData peer = this.peerPrivateData;
		return peer != null && peer.remoteInvalidate();
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
			if (this.failed.get() && this.postedReceives.get() == 0 && noOperations()) {
				// Everything was flushed and its buffers released: the queue has no more use.
				this.cq.close();
				this.released.complete(null);
			}
		}
	}

	private void dispatchOne(WorkCompletion wc) {
		long wrId = wc.wrId();
		if ((wrId & RECEIVE_TAG) != 0) {
			onReceive((int) (wrId & ~RECEIVE_TAG), wc);
			return;
		}
		Object operation;
		synchronized (this.operations) {
			operation = this.operations.remove(wrId);
		}
		this.sendQueueCompletions.lazySet(this.sendQueueCompletions.get() + 1);
		if (operation == null) {
			return;
		}
		if (!wc.isSuccess() && !this.failed.get()) {
			fail(new TransportClosedException("A " + wc.opcode() + " work request failed: " + wc.status()
					+ ((wc.detail() != null) ? " (" + wc.detail() + ")" : "")));
		}
		try {
			complete(operation, wc);
		}
		catch (RuntimeException ex) {
			fail(new TransportClosedException("Handling a completion failed: " + ex));
		}
	}

	private void onReceive(int index, WorkCompletion wc) {
		this.postedReceives.decrementAndGet();
		RegisteredBuffer buffer = this.receives[index];
		if (!wc.isSuccess()) {
			this.receives[index] = null;
			buffer.release();
			if (!this.failed.get()) {
				fail(new TransportClosedException("A receive failed: " + wc.status()
						+ ((wc.detail() != null) ? " (" + wc.detail() + ")" : "")));
			}
			return;
		}
		int length = wc.byteLength();
		boolean invalidated = wc.withInvalidate();
		if (!invalidated && isChunklessMessage(buffer.buffer(), length)) {
			boolean consumed;
			try {
				consumed = acceptChunkless(buffer.buffer(), length);
			}
			catch (RuntimeException ex) {
				repost(index, buffer);
				fail(new TransportClosedException("Handling a received message failed: " + ex));
				return;
			}
			if (consumed) {
				// The subclass copied what it needed straight out of the registered buffer:
				// repost (RFC 5666 §3.3: the credit is a posted receive), then tell the upper layer.
				repost(index, buffer);
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
		if (!repost(index, buffer)) {
			return;
		}
		ByteBuffer message = ByteBuffer.wrap(copy);
		if (invalidated) {
			this.counters.invalidatedByPeer.increment();
		}
		try {
			onMessage(this.decoder.decode(message.duplicate()), message, invalidated ? invalidatedStag : 0);
		}
		catch (RuntimeException ex) {
			fail(new TransportClosedException("Handling a received message failed: " + ex));
		}
	}

	/** @return whether the receive was reposted (or released because the connection failed) */
	private boolean repost(int index, RegisteredBuffer buffer) {
		if (this.failed.get()) {
			this.receives[index] = null;
			buffer.release();
			return true;
		}
		try {
			this.postedReceives.incrementAndGet();
			this.qp.postRecv(this.receiveRequests[index]);
			return true;
		}
		catch (RuntimeException ex) {
			this.postedReceives.decrementAndGet();
			this.receives[index] = null;
			buffer.release();
			fail(new TransportClosedException("Reposting a receive failed: " + ex.getMessage()));
			return false;
		}
	}

	/**
	 * Whether a received message is RDMA_MSG (Version 1, RFC 8166 §4.1.2) or RDMA2_MSG
	 * (draft-cel-nfsv4-rpcrdma-version-two §4.2) of a supported version with three empty chunk
	 * lists, followed by an RPC message whose XID matches rdma_xid (RFC 5666 §4.1). Read in
	 * place, without allocating; what this accepts {@link TransportHeaderDecoder} would decode
	 * to the same header, and everything else goes to it.
	 */
	private boolean isChunklessMessage(ByteBuffer received, int length) {
		if (length < CHUNKLESS_HEADER_LENGTH + RpcRdmaConstants.MIN_RPC_MESSAGE_LENGTH) {
			return false;
		}
		ByteBuffer in = received.order(java.nio.ByteOrder.BIG_ENDIAN);
		int version = in.getInt(4);
		return in.getInt(12) == RpcRdmaConstants.RDMA_MSG && in.getInt(16) == 0 && in.getInt(20) == 0
				&& in.getInt(24) == 0 && in.getInt(CHUNKLESS_HEADER_LENGTH) == in.getInt(0)
				&& (version == RpcRdmaConstants.VERSION_1 || version == RpcRdmaConstants.VERSION_2)
				&& this.config.supportedVersions().contains(version);
	}

	/**
	 * A chunk-less RDMA_MSG arrived (see {@link #isChunklessMessage}); the receive buffer is
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

	long register(Consumer<WorkCompletion> operation) {
		return track(operation);
	}

	private long track(Object operation) {
		long wrId = this.nextWrId.getAndIncrement();
		synchronized (this.operations) {
			this.operations.putIfAbsent(wrId, operation);
		}
		return wrId;
	}

	@SuppressWarnings("unchecked")
	private static void complete(Object operation, WorkCompletion wc) {
		if (operation instanceof RegisteredBuffer sendBuffer) {
			sendBuffer.release();
		}
		else {
			((Consumer<WorkCompletion>) operation).accept(wc);
		}
	}

	private boolean noOperations() {
		synchronized (this.operations) {
			return this.operations.isEmpty();
		}
	}

	void post(SendWorkRequest request) {
		try {
			this.qp.postSend(request);
		}
		catch (RuntimeException ex) {
			Object operation;
			synchronized (this.operations) {
				operation = this.operations.remove(request.wrId());
			}
			TransportException failure = new TransportResourceException(
					"Posting a " + request.opcode() + " failed: " + ex.getMessage(), ex);
			if (operation != null) {
				complete(operation, new WorkCompletion().set(request.wrId(), null,
						CompletionStatus.GENERAL_ERR, 0, 0, false, 0, ex.getMessage()));
			}
			throw failure;
		}
	}

	/**
	 * Leases a buffer without blocking (completion handlers must not wait).
	 */
	RegisteredBuffer lease(BufferRole role, int length) {
		if (length > this.pool.largestBufferSize(role)) {
			throw new MessageTooLargeException(length + " bytes exceed the largest " + role.label()
					+ " buffer of " + this.pool.largestBufferSize(role) + " bytes");
		}
		RegisteredBuffer buffer = this.pool.tryLease(role, Math.max(1, length));
		if (buffer == null) {
			throw new TransportResourceException(
					"The memory pool has no free " + role.label() + " buffer of " + length + " bytes", null);
		}
		return buffer;
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
		long wrId = (done == null) ? track(buffer) : register((wc) -> {
			buffer.release();
			done.accept(wc.isSuccess());
		});
		ScatterGatherEntry sge = ScatterGatherEntry.of(buffer.region(), buffer.offset(), headerLength + payloadLength);
		this.counters.bytesSent.add(headerLength + payloadLength);
		post((invalidateStag != 0) ? SendWorkRequest.sendWithInvalidate(wrId, invalidateStag, sge)
				: SendWorkRequest.send(wrId, sge));
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
		ByteBuffer out = buffer.buffer().order(java.nio.ByteOrder.BIG_ENDIAN);
		out.putInt(0, xid)
			.putInt(4, version)
			.putInt(8, credits)
			.putInt(12, RpcRdmaConstants.RDMA_MSG)
			.putInt(16, 0)
			.putInt(20, 0)
			.putInt(24, 0);
		out.put(CHUNKLESS_HEADER_LENGTH, payload, payload.position(), payloadLength);
		if (payloadLength > 0) {
			this.counters.inlineMessages.increment();
		}
		this.counters.bytesSent.add(length);
		if (owner != null) {
			owner.sending(buffer);
		}
		post(trackChunklessSend(buffer, length, (owner != null) ? owner : buffer));
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

	/** The Send of {@code length} bytes from {@code buffer}, reused if it sent as many last time. */
	private SendWorkRequest trackChunklessSend(RegisteredBuffer buffer, int length, Object operation) {
		synchronized (this.operations) {
			SendWorkRequest request = this.chunklessSends.get(buffer.address());
			if (request == null || request.sgList().get(0).length() != length
					|| request.sgList().get(0).region() != buffer.region()
					|| request.sgList().get(0).offset() != buffer.offset()
					|| this.operations.get(request.wrId()) != null) {
				// The record's canonical constructor with List.of(one): no varargs array.
				request = new SendWorkRequest(this.nextWrId.getAndIncrement(), SendOpcode.SEND,
						List.of(ScatterGatherEntry.of(buffer.region(), buffer.offset(), length)), null, 0, true);
				this.chunklessSends.remove(buffer.address());
				this.chunklessSends.putIfAbsent(buffer.address(), request);
			}
			this.operations.putIfAbsent(request.wrId(), operation);
			return request;
		}
	}

	/** Counts a message sent, by its header: errors, RDMA_DONE, inline messages and chunks. */
	void count(TransportHeader header, int payloadLength) {
		if (header instanceof RdmaErrorHeader error) {
			this.counters.errorSent(error);
		}
		else if (header instanceof RdmaDone) {
			this.counters.doneSent.increment();
		}
		else if (header instanceof ChunkedHeader chunked) {
			if (payloadLength > 0) {
				this.counters.inlineMessages.increment();
			}
			List<ReadChunk> reads = chunked.chunkLists().readChunks();
			this.counters.readChunksSent.add(reads.size());
			if (chunked.chunkLists().hasPositionZeroReadChunk()) {
				this.counters.positionZeroChunksSent.increment();
			}
		}
	}

	/**
	 * Pulls Read chunks with RDMA Read (RFC 5666 §3.4) into local bulk buffers, copies the
	 * data out and releases the buffers.
	 * @param chunks the chunks
	 * @param done given each chunk's data in order, or the failure
	 */
	void fetch(List<ReadChunk> chunks, Consumer<ByteBuffer[]> done, Consumer<TransportException> failed) {
		ByteBuffer[] data = new ByteBuffer[chunks.size()];
		List<RegisteredBuffer> buffers = new ArrayList<>(chunks.size());
		AtomicInteger pending = new AtomicInteger(1);
		AtomicBoolean broken = new AtomicBoolean();
		Runnable finish = () -> {
			if (pending.decrementAndGet() != 0) {
				return;
			}
			if (!broken.get()) {
				for (int i = 0; i < chunks.size(); i++) {
					RegisteredBuffer buffer = buffers.get(i);
					int length = (int) chunks.get(i).totalLength();
					byte[] bytes = new byte[length];
					if (length > 0) {
						buffer.buffer().get(0, bytes, 0, length);
					}
					data[i] = ByteBuffer.wrap(bytes);
				}
			}
			for (RegisteredBuffer buffer : buffers) {
				buffer.release();
			}
			if (broken.get()) {
				failed.accept(new TransportClosedException("An RDMA Read of a chunk failed"));
			}
			else {
				done.accept(data);
			}
		};
		try {
			if (this.readsForbidden) {
				throw new ChunkValidationException("The peer allows no RDMA Read (CCP maxrdmaread 0, RFC 5666 §6.2), "
						+ "so its Read chunks cannot be pulled");
			}
			for (ReadChunk chunk : chunks) {
				long total = chunk.totalLength();
				if (total > this.pool.largestBufferSize(BufferRole.LOCAL_BULK)) {
					throw new ChunkValidationException("Read chunk at position " + Integer.toUnsignedString(chunk.position())
							+ " of " + total + " bytes exceeds the largest local buffer");
				}
				buffers.add(lease(BufferRole.LOCAL_BULK, (int) total));
			}
			this.counters.readChunksPulled.add(chunks.size());
			for (int i = 0; i < chunks.size(); i++) {
				RegisteredBuffer buffer = buffers.get(i);
				int offset = 0;
				for (RdmaSegment segment : chunks.get(i).segments()) {
					int length = segment.length();
					if (length != 0) {
						pending.incrementAndGet();
						RemoteAddress source = new RemoteAddress(segment.offset(), segment.handle());
						ScatterGatherEntry sink = ScatterGatherEntry.of(buffer.region(), buffer.offset() + offset, length);
						this.readThrottle.submit(new ReadThrottle.Read(() -> startRead(source, sink, broken, finish), () -> {
							broken.set(true);
							finish.run();
						}));
					}
					offset += length;
				}
			}
		}
		catch (TransportException ex) {
			broken.set(true);
			if (pending.get() == 1) {
				pending.set(0);
				for (RegisteredBuffer buffer : buffers) {
					buffer.release();
				}
				failed.accept(ex);
				return;
			}
			finish.run();
			return;
		}
		finish.run();
	}

	/** Posts one RDMA Read admitted by the {@link ReadThrottle}; its completion frees the slot. */
	private void startRead(RemoteAddress source, ScatterGatherEntry sink, AtomicBoolean broken, Runnable finish) {
		long wrId = register((wc) -> {
			this.readThrottle.release();
			if (!wc.isSuccess()) {
				broken.set(true);
			}
			finish.run();
		});
		try {
			post(SendWorkRequest.rdmaRead(wrId, source, sink));
			this.counters.bytesRead.add(sink.length());
		}
		catch (TransportException ex) {
			// post() already completed the operation as failed: the slot is free, the fetch broken.
		}
	}

	/**
	 * Pulls Read chunks with RDMA Read (RFC 5666 §3.4) straight into one local buffer, each
	 * chunk at its own offset, with no copy afterwards (see {@link DirectPlacement}).
	 * @param chunks the chunks
	 * @param placement where each chunk's data goes in {@code target}
	 * @param target the local buffer, owned by the caller, who releases it only after
	 * {@code done} or {@code failed} ran (a Read may still be landing until then)
	 * @param done run once every Read completed
	 * @param failed given the failure once no Read is outstanding
	 */
	void readInto(List<ReadChunk> chunks, DirectPlacement placement, RegisteredBuffer target, Runnable done,
			Consumer<TransportException> failed) {
		AtomicInteger pending = new AtomicInteger(1);
		AtomicBoolean broken = new AtomicBoolean();
		java.util.concurrent.atomic.AtomicReference<TransportException> notPosted = new java.util.concurrent.atomic.AtomicReference<>();
		Runnable finish = () -> {
			if (pending.decrementAndGet() != 0) {
				return;
			}
			if (broken.get()) {
				TransportException cause = notPosted.get();
				failed.accept((cause != null) ? cause : new TransportClosedException("An RDMA Read of a chunk failed"));
			}
			else {
				done.run();
			}
		};
		try {
			if (this.readsForbidden) {
				throw new ChunkValidationException("The peer allows no RDMA Read (CCP maxrdmaread 0, RFC 5666 §6.2), "
						+ "so its Read chunks cannot be pulled");
			}
			this.counters.readChunksPulled.add(chunks.size());
			for (int i = 0; i < chunks.size(); i++) {
				int offset = target.offset() + placement.chunkOffset(i);
				for (RdmaSegment segment : chunks.get(i).segments()) {
					int length = segment.length();
					if (length != 0) {
						pending.incrementAndGet();
						RemoteAddress source = new RemoteAddress(segment.offset(), segment.handle());
						ScatterGatherEntry sink = ScatterGatherEntry.of(target.region(), offset, length);
						// Through the same throttle as fetch: the ORD bounds every RDMA Read.
						this.readThrottle.submit(new ReadThrottle.Read(() -> startRead(source, sink, broken, finish), () -> {
							broken.set(true);
							finish.run();
						}));
					}
					offset += length;
				}
			}
		}
		catch (TransportException ex) {
			notPosted.set(ex);
			broken.set(true);
		}
		finish.run();
	}

	/**
	 * Writes bytes into a peer's chunk, spreading them over its segments in order (RFC 8166
	 * §3.4.6).
	 * @param data the bytes
	 * @param segments the peer's segments
	 * @param bulk a local buffer holding the data at offset 0
	 * @return the segments with their lengths set to what was written
	 */
	List<RdmaSegment> writeInto(ByteBuffer data, List<RdmaSegment> segments, RegisteredBuffer bulk) {
		int length = data.remaining();
		bulk.buffer().put(0, data, data.position(), length);
		return writeFrom(bulk, length, segments);
	}

	/**
	 * Writes the first bytes of a local registered buffer into a peer's chunk, spreading them
	 * over its segments in order (RFC 8166 §3.4.6), straight from that buffer.
	 * @param bulk a local buffer of this endpoint's protection domain holding the data at offset 0
	 * @param length how many bytes
	 * @param segments the peer's segments
	 * @return the segments with their lengths set to what was written
	 */
	List<RdmaSegment> writeFrom(RegisteredBuffer bulk, int length, List<RdmaSegment> segments) {
		List<RdmaSegment> actual = new ArrayList<>(segments.size());
		int written = 0;
		if (length > 0) {
			this.counters.writeChunksFilled.increment();
		}
		for (RdmaSegment segment : segments) {
			int take = (int) Math.min(segment.unsignedLength(), length - written);
			if (take > 0) {
				long wrId = register((wc) -> {
				});
				post(SendWorkRequest.rdmaWrite(wrId, new RemoteAddress(segment.offset(), segment.handle()),
						ScatterGatherEntry.of(bulk.region(), bulk.offset() + written, take)));
				this.counters.bytesWritten.add(take);
			}
			actual.add(new RdmaSegment(segment.handle(), take, segment.offset()));
			written += take;
		}
		return actual;
	}

	/**
	 * Whether a registered buffer someone else leased can be the source of this endpoint's
	 * RDMA Writes: still leased, and registered in this endpoint's protection domain (a
	 * buffer of another pool would fail the local access check and take the connection down).
	 * @param buffer the buffer
	 * @return whether work requests may name it
	 */
	boolean usableHere(RegisteredBuffer buffer) {
		return buffer.isLeased() && buffer.region().protectionDomain() == this.pool.protectionDomain()
				&& buffer.region().isValid();
	}

	/**
	 * The operation watch, on the timer thread: a connection with work posted and no
	 * send-queue completion for {@link PeerLimits#operationTimeout()} (or
	 * {@link PeerLimits#operationTimeoutUnderPressure()}) has a peer that leaves its
	 * oldest work request unanswered (work requests of a queue pair complete in order), such as
	 * an RDMA Read of a chunk it advertised (RFC 8166 §3.4.5) or the zero-length Read a
	 * software iWARP provider fences Sends with. Failing the connection flushes everything it
	 * posted, which gives its buffers back. Work posted after an idle look counts from the next
	 * look, so nothing is failed before it has waited the whole timeout.
	 */
	private void watchOperations() {
		if (this.failed.get()) {
			this.operationWatch.cancel(false);
			return;
		}
		long now = System.nanoTime();
		long completions = this.sendQueueCompletions.get();
		boolean idle = noOperations();
		if (idle || this.idleAtLastLook || completions != this.watchedCompletions) {
			this.watchedCompletions = completions;
			this.stalledSince = now;
			this.idleAtLastLook = idle;
			return;
		}
		java.time.Duration timeout = underMemoryPressure() ? this.config.peerLimits().operationTimeoutUnderPressure()
				: this.config.peerLimits().operationTimeout();
		if (now - this.stalledSince >= timeout.toNanos()) {
			this.counters.operationTimeouts.increment();
			fail(new PeerTimeoutException("The peer left work this side posted unanswered for " + timeout.toMillis()
					+ " ms (an RDMA Read of its chunk, or the Read that confirms a Send); the connection was failed and "
					+ "its buffers reclaimed. If the peer is just slow, raise PeerLimits.operationTimeout "
					+ "(rpcrdma.*.peer.operation-timeout)"));
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
		this.operationWatch.cancel(false);
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
			// completions release the buffers.
			this.qp.close();
			if (this.postedReceives.get() == 0 && noOperations()) {
				// Nothing left to flush: no completion will come to say so.
				this.released.complete(null);
			}
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
		return this.counters.snapshot();
	}

	/** @return the number of receives currently posted */
	int postedReceives() {
		return this.postedReceives.get();
	}

}

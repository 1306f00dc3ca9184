package io.rpcrdma.transport;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.ChunkedHeader;
import io.rpcrdma.protocol.HeaderDecodeResult;
import io.rpcrdma.protocol.InvalidOptionInfoException;
import io.rpcrdma.protocol.Rdma2Msg;
import io.rpcrdma.protocol.Rdma2Nomsg;
import io.rpcrdma.protocol.Rdma2Optional;
import io.rpcrdma.protocol.RdmaDone;
import io.rpcrdma.protocol.RdmaErrorHeader;
import io.rpcrdma.protocol.RdmaErrorReplies;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.RdmaMsgp;
import io.rpcrdma.protocol.RdmaNomsg;
import io.rpcrdma.protocol.RdmaSegment;
import io.rpcrdma.protocol.ReadChunk;
import io.rpcrdma.protocol.ReadSegment;
import io.rpcrdma.protocol.RpcRdmaConstants;
import io.rpcrdma.protocol.TraceContext;
import io.rpcrdma.protocol.TraceContextOption;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.protocol.TransportHeaderEncoder;
import io.rpcrdma.protocol.WriteChunk;
import io.rpcrdma.protocol.ccp.ConfigRdmaReply;
import io.rpcrdma.protocol.ccp.ConfigRdmaRequest;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.WorkCompletion;
import io.rpcrdma.xdr.OpaquePadding;

/**
 * The responder end of one RPC-over-RDMA connection: validates incoming headers (answering
 * ERR_VERS, ERR_CHUNK / RDMA_ERR_BAD_HEADER, RDMA_ERR_INVAL_OPTION), enforces and grants
 * credits, pulls Read chunks, hands complete calls to the {@link InboundCallHandler}, and
 * conveys replies in the requester's version (inline, Write chunks, Reply chunk, or RFC 5666
 * Read chunks awaiting RDMA_DONE).
 */
public final class RpcRdmaServerConnection extends RpcRdmaEndpoint {

	private final InboundCallHandler handler;

	private final Executor executor;

	private final CreditBudget budget;

	private final InetSocketAddress remote;

	/** Requests received and not yet answered, RDMA_DONE awaited included (RFC 5666 §3.3). */
	private final AtomicInteger outstanding = new AtomicInteger();

	private final AtomicInteger violations = new AtomicInteger();

	private final ConcurrentHashMap<Integer, DoneWait> awaitingDone = new ConcurrentHashMap<>();

	private volatile int grant;

	private volatile boolean negotiatedInBand;

	/** The version of the requester's latest call, 0 before its first (replies use it too). */
	private volatile int version;

	/**
	 * Finished contexts of chunk-less calls, for reuse, guarded by itself: a context comes back
	 * only once its reply's Send completed and the RPC layer released it
	 * ({@link ReplySender#release()}).
	 */
	private final CallContext[] freeContexts;

	private int freeCount;

	/** A call taken by {@link #acceptChunkless}, delivered by {@link #deliverChunkless} next. */
	private CallContext accepted;

	/** Calls to the requester (RFC 8167), or {@code null} when this server makes none. */
	private final BackwardCalls backward;

	/** What all the server's connections' Read chunks hold together, shared with them. */
	private final FifoAdmission placements;

	RpcRdmaServerConnection(RdmaProvider provider, RegisteredMemoryPool pool, TransportConfig config,
			CreditBudget budget, Executor executor, InboundCallHandler handler, InetSocketAddress remote) {
		this(provider, pool, config, budget, executor, handler, remote, 0, placementBudget(pool));
	}

	/**
	 * The bulk memory all connections' Read chunks may hold together: half the pool's budget
	 * for send, chunk and bulk buffers, so that replies, sends and reply chunks always find
	 * memory however many connections fill their {@link PeerLimits#bulkShare()} and stop
	 * answering (RFC 8166 §8).
	 * @param pool the server's memory
	 * @return the budget, to share among the server's connections
	 */
	static FifoAdmission placementBudget(RegisteredMemoryPool pool) {
		return new FifoAdmission(Math.max(1, pool.config().maxRegisteredBytes() / 2));
	}

	/**
	 * @param backwardCredits the most backward-direction calls outstanding at once (RFC 8167
	 * §4.1), as many receives posted beyond the forward direction's for their replies (§4.3);
	 * 0 for none
	 * @param placements the bulk memory all the server's connections' Read chunks hold together
	 * ({@link #placementBudget})
	 */
	RpcRdmaServerConnection(RdmaProvider provider, RegisteredMemoryPool pool, TransportConfig config,
			CreditBudget budget, Executor executor, InboundCallHandler handler, InetSocketAddress remote,
			int backwardCredits, FifoAdmission placements) {
		super(provider, pool, BackwardDirection.withBackwardReceives(config, backwardCredits));
		this.placements = placements;
		this.handler = handler;
		this.executor = executor;
		this.budget = budget;
		this.remote = remote;
		this.freeContexts = new CallContext[Math.min(256, Math.max(4, 2 * config.creditsGranted()))];
		this.backward = (backwardCredits > 0) ? new BackwardCalls(this, backwardCredits) : null;
	}

	/** The most backward-direction credits a connection provisions receives for. */
	public static final int MAX_BACKWARD_CREDITS = BackwardDirection.MAX_CREDITS;

	/**
	 * @return the backward direction (RFC 8167), for calls to the requester; empty when the
	 * server was started without backward-direction credits
	 */
	public java.util.Optional<BackwardCalls> backwardCalls() {
		return java.util.Optional.ofNullable(this.backward);
	}

	/** @return the requester's address */
	public InetSocketAddress remoteAddress() {
		return this.remote;
	}

	/** @return the credits currently granted to this requester; 0 before its first request */
	public int grant() {
		return this.grant;
	}

	/**
	 * @return the RPC-over-RDMA version of the requester's latest call (the server always
	 * replies in the requester's version), 0 before its first call
	 */
	public int version() {
		return this.version;
	}

	/** @return requests received and not yet answered */
	public int outstanding() {
		return this.outstanding.get();
	}

	/** @return requests that arrived beyond the grant */
	public int creditViolations() {
		return this.violations.get();
	}

	/** @return replies whose Read chunks await RDMA_DONE */
	public int awaitingDone() {
		return this.awaitingDone.size();
	}

	/** @return whether the connection is usable */
	public boolean isOpen() {
		return isUsable();
	}

	/** @return completes when the connection is down */
	public CompletableFuture<Void> closeFuture() {
		return this.closeFuture;
	}

	/** Disconnects. */
	public void close() {
		fail(new TransportClosedException("The connection was closed by the responder"));
	}

	// ---- receiving ---------------------------------------------------------------------------

	@Override
	void onMessage(HeaderDecodeResult result, ByteBuffer message, int invalidatedStag) {
		if (result instanceof HeaderDecodeResult.UnsupportedVersion unsupported) {
			// RFC 5666 §4.2: answer with the versions supported, in one of them.
			sendError(RdmaErrorReplies.forUnsupportedVersion(unsupported, this.config.supportedVersions(), grantFor(0)));
		}
		else if (result instanceof HeaderDecodeResult.Malformed malformed) {
			sendError(RdmaErrorReplies.forMalformed(malformed, grantFor(0)));
		}
		else if (result instanceof HeaderDecodeResult.Valid valid) {
			onValid(valid, message);
		}
		else {
			// Fewer than eight bytes: no XID to answer to. A peer sending these is broken.
			fail(new TransportClosedException("The requester sent a message too short for a transport header: " + result));
		}
	}

	private void onValid(HeaderDecodeResult.Valid received, ByteBuffer receivedMessage) {
		HeaderDecodeResult.Valid valid = received;
		ByteBuffer message = receivedMessage;
		TransportHeader header = valid.header();
		TraceContext trace = null;
		if (header instanceof RdmaDone done) {
			this.counters.doneReceived.increment();
			DoneWait wait = this.awaitingDone.remove(done.xid());
			if (wait != null) {
				wait.finish(true);
			}
			return;
		}
		if (header instanceof Rdma2Optional optional) {
			if (optional.optionType() != TraceContextOption.OPTION_TYPE) {
				// The one optional feature known here is the trace context; every other type is
				// unknown (draft §3.1).
				sendError(RdmaErrorReplies.forInvalidOption(optional, grantFor(0)));
				return;
			}
			// From here on the call is the RDMA2_MSG or RDMA2_NOMSG the option wraps, followed
			// by the payload the option's message carries.
			Unwrapped call = unwrap(optional, message, valid);
			if (call == null) {
				sendError(RdmaErrorReplies.forMalformed(RpcRdmaConstants.VERSION_2, optional.xid(), grantFor(0)));
				return;
			}
			trace = call.context();
			message = call.message();
			valid = call.valid();
			header = valid.header();
		}
		if (header instanceof RdmaErrorHeader error) {
			this.counters.errorReceived(error);
			if (this.backward != null) {
				// The requester refused one of this side's backward-direction calls.
				this.backward.onError(error.xid(), new RdmaErrorReceivedException(error));
			}
			return;
		}
		ChunkedHeader call = (ChunkedHeader) header;
		if (!(header instanceof RdmaNomsg || header instanceof Rdma2Nomsg) && BackwardDirection
			.messageType(message, valid.payloadOffset(), valid.payloadLength()) == BackwardDirection.REPLY) {
			onBackwardReply(call, message.slice(valid.payloadOffset(), valid.payloadLength()));
			return;
		}
		if (this.version != header.version()) {
			this.version = header.version();
		}
		int granted = grantFor(header.credits());
		if (header instanceof RdmaMsgp msgp && Integer.compareUnsigned(msgp.align(), 4) > 0
				&& (!msgp.chunkLists().readList().isEmpty()
						|| Integer.toUnsignedLong(msgp.align()) > this.config.receiveBufferSize())) {
			// RFC 5666 §3.9: the RPC layer's decoder skips the padding (InboundCall#padding).
			// Read chunk positions would count a stream the padding shifts, and an alignment
			// beyond the receive buffer cannot be what a sender meant: refuse those.
			sendError(RdmaErrorReplies.forMalformed(header.version(), header.xid(), granted));
			return;
		}
		if (this.outstanding.incrementAndGet() > granted) {
			this.outstanding.decrementAndGet();
			this.violations.incrementAndGet();
			if (this.config.creditViolation() == CreditViolationPolicy.DISCONNECT) {
				fail(new TransportClosedException("The requester exceeded its grant of " + granted
						+ " credits (RFC 5666 §3.3) and was disconnected"));
			}
			else {
				sendError(RdmaErrorReplies.forMalformed(header.version(), header.xid(), granted));
			}
			return;
		}
		try {
			receiveCall(call, message.slice(valid.payloadOffset(), valid.payloadLength()), RdmaMsgpPadding.of(header, valid),
					trace);
		}
		catch (TransportException ex) {
			answerWithError(header.version(), header.xid());
		}
	}

	/**
	 * RFC 8167 §5: an RPC REPLY from the requester answers a backward-direction call. It takes
	 * no forward-direction credit. This side offered no chunks for it (§7), so a reply that
	 * returns any is refused and its call fails.
	 */
	private void onBackwardReply(ChunkedHeader header, ByteBuffer payload) {
		if (this.backward == null) {
			// Nothing was ever called back: a requester that sends replies unasked is broken,
			// but the forward direction is not its victim. Dropped.
			return;
		}
		ChunkLists lists = header.chunkLists();
		if (!lists.readList().isEmpty() || !lists.writeList().isEmpty() || lists.replyChunk() != null) {
			this.backward.onError(header.xid(), new ChunkValidationException(
					"The client's reply to backward-direction call XID 0x" + Integer.toHexString(header.xid())
							+ " carries chunks, which none were offered for (RFC 8167 §7)"));
			return;
		}
		ByteBuffer copy = ByteBuffer.allocate(payload.remaining());
		copy.put(payload).flip();
		this.backward.onReply(header.xid(), header.version(), header.credits(), copy);
	}

	/**
	 * A chunk-less RDMA_MSG / RDMA2_MSG call (RFC 8166 §3.5.1 Short Message), read in place:
	 * the same grant and credit checks as {@link #onValid}, then the RPC message is copied into
	 * a recycled context whose buffer the RPC layer reads. A call beyond the grant or a CCP
	 * call takes the general path, which answers them.
	 */
	@Override
	boolean acceptChunkless(ByteBuffer received, int length) {
		if (received.getInt(CHUNKLESS_HEADER_LENGTH + 4) != BackwardDirection.CALL) {
			// A backward-direction reply (RFC 8167 §5), or nonsense: onValid sorts it out.
			return false;
		}
		int xid = received.getInt(0);
		int vers = received.getInt(4);
		int granted = grantFor(received.getInt(8));
		if (this.outstanding.incrementAndGet() > granted) {
			// Beyond the grant (RFC 8166 §3.3.1): onValid counts it and answers as configured.
			this.outstanding.decrementAndGet();
			return false;
		}
		CallContext context = takeContext();
		context.reuse(xid, vers, received, CHUNKLESS_HEADER_LENGTH, length - CHUNKLESS_HEADER_LENGTH);
		if (this.config.inBandCcp() != CcpMode.DISABLED && CcpExchange.isCcpCall(context.inline)) {
			this.outstanding.decrementAndGet();
			giveBack(context);
			return false;
		}
		if (this.version != vers) {
			this.version = vers;
		}
		this.accepted = context;
		return true;
	}

	@Override
	void deliverChunkless() {
		CallContext context = this.accepted;
		this.accepted = null;
		dispatch(context, context.inline);
	}

	private CallContext takeContext() {
		synchronized (this.freeContexts) {
			if (this.freeCount > 0) {
				CallContext context = this.freeContexts[--this.freeCount];
				this.freeContexts[this.freeCount] = null;
				return context;
			}
		}
		return new CallContext(this.config.receiveBufferSize());
	}

	private void giveBack(CallContext context) {
		synchronized (this.freeContexts) {
			if (this.freeCount < this.freeContexts.length) {
				this.freeContexts[this.freeCount++] = context;
			}
		}
	}

	/**
	 * The grant for this connection: what the requester asks (capped by configuration and the
	 * shared budget), never less than one and never shrinking below what was said before.
	 */
	private int grantFor(int requested) {
		int current = this.grant;
		int wanted = (int) Math.min(Integer.toUnsignedLong(requested), this.config.creditsGranted());
		if (current == 0 || wanted > current) {
			int next = this.budget.grow(current, Math.max(wanted, 1));
			this.grant = next;
			return next;
		}
		return current;
	}


	/**
	 * What a {@link TraceContextOption} message carries, or {@code null} if it is not what the
	 * option defines: a well-formed trace context, then a Version Two RDMA_MSG or RDMA_NOMSG
	 * header of the same rdma_xid that is valid with the payload that follows (draft §3.2).
	 */
	private Unwrapped unwrap(Rdma2Optional optional, ByteBuffer message, HeaderDecodeResult.Valid valid) {
		TraceContextOption.TracedCall traced;
		try {
			traced = TraceContextOption.decode(optional.optionInfo());
		}
		catch (InvalidOptionInfoException ex) {
			return null;
		}
		ByteBuffer unwrapped = unwrapped(traced, message, valid);
		HeaderDecodeResult inner = this.decoder.decode(unwrapped.duplicate());
		if (!(inner instanceof HeaderDecodeResult.Valid call)
				|| !(call.header() instanceof Rdma2Msg || call.header() instanceof Rdma2Nomsg)
				|| call.header().xid() != optional.xid()) {
			return null;
		}
		if (call.header() instanceof Rdma2Msg && BackwardDirection.messageType(message, valid.payloadOffset(),
				valid.payloadLength()) != BackwardDirection.CALL) {
			// Only calls carry a trace context; a reply in the backward direction does not.
			return null;
		}
		return new Unwrapped(traced.context(), unwrapped, call);
	}

	/** A call unwrapped from the trace-context option: its context, its message and its header. */
	private record Unwrapped(TraceContext context, ByteBuffer message, HeaderDecodeResult.Valid valid) {
	}

	/** The wrapped call header and the payload after it, as one message in memory this side owns. */
	private static ByteBuffer unwrapped(TraceContextOption.TracedCall traced, ByteBuffer message,
			HeaderDecodeResult.Valid valid) {
		ByteBuffer header = traced.callHeader();
		ByteBuffer out = ByteBuffer.allocate(header.remaining() + valid.payloadLength());
		out.put(header.duplicate());
		out.put(message.slice(valid.payloadOffset(), valid.payloadLength()));
		return out.flip();
	}

	private void receiveCall(ChunkedHeader header, ByteBuffer payload, OpaquePadding padding, TraceContext trace) {
		ChunkLists lists = header.chunkLists();
		ChunkAssembler.checkNoOverlap(lists);
		boolean nomsg = header instanceof RdmaNomsg || header instanceof Rdma2Nomsg;
		if (nomsg && !lists.hasPositionZeroReadChunk()) {
			throw new ChunkValidationException("RDMA_NOMSG call without a Position-Zero Read chunk");
		}
		List<ReadChunk> chunks = lists.readChunks();
		CallContext context = new CallContext(header, padding);
		context.traceContext = trace;
		if (chunks.isEmpty()) {
			if (this.config.inBandCcp() != CcpMode.DISABLED && CcpExchange.isCcpCall(payload)) {
				answerInBandConfiguration(context, payload);
				return;
			}
			dispatch(context, payload);
			return;
		}
		DirectPlacement placement = directPlacement(chunks, payload);
		// What the call's buffers take from the pool (whole size classes), not what it asked for.
		long bytes = (placement != null) ? this.pool.leasedLength(BufferRole.LOCAL_BULK, placement.length())
				: leasedLength(chunks);
		// RFC 8166 §8: what a peer's Read chunks make this side hold is bounded per connection;
		// beyond its share a call waits for the connection's own earlier calls (PeerLimits).
		// Within the connection's share first, then within what all connections hold together.
		Runnable placeWithinTheServersBudget = () -> {
			boolean waitedForOthers = this.placements.admit(new FifoAdmission.Waiter(bytes,
					() -> pullIfOpen(header, context, chunks, payload, placement, bytes), () -> {
						this.bulkShare.release(bytes);
						this.outstanding.decrementAndGet();
					}));
			if (waitedForOthers) {
				this.counters.bulkShareWaits.increment();
			}
		};
		boolean waited = this.bulkShare.admit(new FifoAdmission.Waiter(bytes, placeWithinTheServersBudget,
				() -> this.outstanding.decrementAndGet()));
		if (waited) {
			this.counters.bulkShareWaits.increment();
		}
	}

	/**
	 * A call admitted by the server-wide budget after its connection failed gives its memory
	 * back at once: the budget is shared, and the connection's waiters are not removed when
	 * it fails.
	 */
	private void pullIfOpen(ChunkedHeader header, CallContext context, List<ReadChunk> chunks, ByteBuffer payload,
			DirectPlacement placement, long bytes) {
		if (!isUsable()) {
			releasePlacement(bytes);
			this.outstanding.decrementAndGet();
			return;
		}
		pull(header, context, chunks, payload, placement, bytes);
	}

	/** An admitted call's Read chunks gave their memory back: to the server, then to the connection. */
	private void releasePlacement(long bytes) {
		this.placements.release(bytes);
		this.bulkShare.release(bytes);
	}

	@Override
	boolean underMemoryPressure() {
		return this.placements.waiting() > 0;
	}

	/** What the copying path's buffers take from the pool: one local bulk buffer per chunk ({@link #fetch}). */
	private long leasedLength(List<ReadChunk> chunks) {
		long total = 0;
		for (ReadChunk chunk : chunks) {
			total += this.pool.leasedLength(BufferRole.LOCAL_BULK, chunk.totalLength());
		}
		return total;
	}

	/** Pulls an admitted call's Read chunks; its share of bulk memory is given back once they are released. */
	private void pull(ChunkedHeader header, CallContext context, List<ReadChunk> chunks, ByteBuffer payload,
			DirectPlacement placement, long bytes) {
		try {
			if (placement != null) {
				placeDirectly(header, context, chunks, payload, placement, bytes);
			}
			else {
				fetchCall(header, context, chunks, payload, bytes);
			}
		}
		catch (TransportException ex) {
			releasePlacement(bytes);
			answerWithError(header.version(), header.xid());
		}
	}

	private void fetchCall(ChunkedHeader header, CallContext context, List<ReadChunk> chunks, ByteBuffer payload,
			long bytes) {
		fetch(chunks, (data) -> {
			// The chunks were copied out and their buffers released.
			releasePlacement(bytes);
			try {
				ByteBuffer inline = payload;
				List<ReadChunk> rest = chunks;
				ByteBuffer[] restData = data;
				if (chunks.get(0).isPositionZero()) {
					inline = data[0];
					rest = chunks.subList(1, chunks.size());
					restData = java.util.Arrays.copyOfRange(data, 1, data.length);
				}
				ByteBuffer whole = ChunkAssembler.reassemble(inline, rest, restData, this.config.checkChunkLengthWords());
				if (whole.remaining() < RpcRdmaConstants.MIN_RPC_MESSAGE_LENGTH || whole.getInt(0) != header.xid()) {
					throw new ChunkValidationException("The reassembled call does not begin with XID 0x"
							+ Integer.toHexString(header.xid()));
				}
				dispatch(context, whole);
			}
			catch (TransportException ex) {
				answerWithError(header.version(), header.xid());
			}
		}, (error) -> {
			releasePlacement(bytes);
			if (error instanceof TransportClosedException) {
				// The RDMA Read failed: the provider already terminated the connection.
				this.outstanding.decrementAndGet();
			}
			else {
				// A chunk larger than any local buffer, or the pool is exhausted: refuse the call.
				answerWithError(header.version(), header.xid());
			}
		});
	}

	/**
	 * Plans the whole call in one registered buffer when it fits the largest local bulk
	 * buffer: Read chunks at non-zero positions around the Payload stream, or a lone
	 * Position-Zero Read chunk. A Position-Zero chunk with further chunks, or a larger message,
	 * takes the copying path ({@link #fetch}).
	 */
	private DirectPlacement directPlacement(List<ReadChunk> chunks, ByteBuffer payload) {
		int largest = this.pool.largestBufferSize(BufferRole.LOCAL_BULK);
		if (chunks.get(0).isPositionZero()) {
			return (chunks.size() == 1) ? DirectPlacement.positionZero(chunks.get(0), largest) : null;
		}
		return DirectPlacement.plan(payload, chunks, this.config.checkChunkLengthWords(), largest);
	}

	/**
	 * Rebuilds the call in one buffer leased from the pool: the inline fragments copied to
	 * their places, each Read chunk RDMA-Read straight to its XDR position (RFC 8166 §3.4.4).
	 * The handler reads bulk arguments as views of this registered memory; the buffer goes back
	 * to the pool when the call is answered or dropped ({@link CallContext#releaseMessage()}).
	 */
	private void placeDirectly(ChunkedHeader header, CallContext context, List<ReadChunk> chunks, ByteBuffer payload,
			DirectPlacement placement, long bytes) {
		RegisteredBuffer target = lease(BufferRole.LOCAL_BULK, placement.length());
		ByteBuffer message = target.buffer().slice(0, placement.length());
		if (!chunks.get(0).isPositionZero()) {
			placement.copyInline(payload, chunks, message);
		}
		readInto(chunks, placement, target, () -> {
			if (message.remaining() < RpcRdmaConstants.MIN_RPC_MESSAGE_LENGTH || message.getInt(0) != header.xid()) {
				target.release();
				releasePlacement(bytes);
				answerWithError(header.version(), header.xid());
				return;
			}
			context.placed = target;
			context.placedShare = bytes;
			dispatch(context, message);
		}, (error) -> {
			target.release();
			releasePlacement(bytes);
			if (error instanceof TransportClosedException) {
				this.outstanding.decrementAndGet();
			}
			else {
				answerWithError(header.version(), header.xid());
			}
		});
	}

	/**
	 * RFC 5666 §6.2: answers CONF_RDMA in the transport, takes the requester's sizes as if
	 * they had come in RFC 8797 private data, and returns this side's. The new sizes apply
	 * before the reply goes out, so the requester's next call already meets them.
	 */
	private void answerInBandConfiguration(CallContext context, ByteBuffer call) {
		ByteBuffer reply = CcpExchange.answer(call, this::configureInBand);
		context.reply(OutboundReply.inline(reply));
	}

	/**
	 * RFC 5666 §6.2: takes a requester's CONF_RDMA sizes as if they had come in RFC 8797
	 * private data and returns this side's; whether the transport answered the call itself or
	 * the RPC layer did under a security flavor (§11, {@link ReplySender#configureInBand}).
	 */
	private ConfigRdmaReply configureInBand(ConfigRdmaRequest request) {
		applyInBandSizes(CcpExchange.size(request.maxCallSendSize()), CcpExchange.size(request.maxReplySendSize()));
		applyPeerReadDepth(request.maxRdmaRead());
		this.negotiatedInBand = true;
		// align: this side pads nothing beyond XDR's four bytes.
		return new ConfigRdmaReply(this.config.receiveBufferSize(), 4, this.config.maxOutstandingReads());
	}

	/** @return whether the requester configured this connection in band with CCP (RFC 5666 §6) */
	public boolean negotiatedInBand() {
		return this.negotiatedInBand;
	}

	private void answerWithError(int version, int xid) {
		this.outstanding.decrementAndGet();
		sendError(RdmaErrorReplies.forMalformed(version, xid, grantFor(0)));
	}

	private void sendError(RdmaErrorHeader error) {
		if (!isUsable()) {
			return;
		}
		try {
			sendMessage(error, null, 0, null);
		}
		catch (TransportException ex) {
			fail(new TransportClosedException("Sending " + error + " failed: " + ex.getMessage()));
		}
	}

	private void dispatch(CallContext context, ByteBuffer message) {
		List<WriteChunk> offered = context.lists.writeList();
		List<Long> capacities = offered.isEmpty() ? List.of() : new ArrayList<>(offered.size());
		for (int i = 0; i < offered.size(); i++) {
			capacities.add(offered.get(i).totalLength());
		}
		WriteChunk reply = context.lists.replyChunk();
		context.call = new InboundCall(context.xid, context.version, message, capacities,
				(reply != null) ? reply.totalLength() : 0, context.padding, context.lists.readList().size(),
				context.traceContext);
		try {
			// The context is the task: no lambda per call.
			this.executor.execute(context);
		}
		catch (RuntimeException ex) {
			context.fail();
		}
	}

	// ---- replying ----------------------------------------------------------------------------

	private CompletableFuture<Void> sendReply(CallContext context, OutboundReply reply) {
		CompletableFuture<Void> done = new CompletableFuture<>();
		List<RegisteredBuffer> buffers = new ArrayList<>(2);
		try {
			conveyReply(context, reply, buffers, done);
		}
		catch (TransportException ex) {
			for (RegisteredBuffer buffer : buffers) {
				buffer.release();
			}
			answerWithError(context.version, context.xid);
			done.completeExceptionally(ex);
		}
		return done;
	}

	private void conveyReply(CallContext context, OutboundReply reply, List<RegisteredBuffer> buffers,
			CompletableFuture<Void> done) {
		if (!isUsable()) {
			throw failure();
		}
		ByteBuffer message = reply.message();
		List<WriteChunk> offered = context.lists.writeList();
		List<DdpRange> items = reply.ddpItems();
		boolean plain = offered.isEmpty() && items.isEmpty();
		// A reply with nothing DDP-eligible and no Write chunk, the common case, allocates no lists.
		List<WriteChunk> returned = plain ? List.of() : new ArrayList<>(offered.size());
		List<ReadSegment> reads = plain ? List.of() : new ArrayList<>();
		List<DdpRange> moved = plain ? List.of() : new ArrayList<>();
		List<RegisteredBuffer> readBuffers = plain ? new ArrayList<>(0) : new ArrayList<>();
		for (int i = 0; i < items.size(); i++) {
			DdpRange item = items.get(i);
			if (i < offered.size() && item.length() <= offered.get(i).totalLength()) {
				// RFC 8166 §3.4.6: the data goes by RDMA Write; the XDR length word stays in
				// the Payload stream and the segments return the lengths actually written.
				// An item carried apart is copied once, from where the handler had it into
				// registered memory; the RDMA Write then goes from there. One already in this
				// connection's registered memory is written from where it is.
				RegisteredBuffer source = item.registered();
				if (source != null && usableHere(source)) {
					returned.add(new WriteChunk(writeFrom(source, item.length(), offered.get(i).segments())));
				}
				else {
					RegisteredBuffer bulk = lease(BufferRole.LOCAL_BULK, item.length());
					buffers.add(bulk);
					returned.add(new WriteChunk(writeInto(item.data(message), offered.get(i).segments(), bulk)));
				}
				moved.add(item);
			}
			else if (this.config.replyDataInReadChunks() && context.version == RpcRdmaConstants.VERSION_1
					&& item.length() > 0) {
				// RFC 5666 §3.4: reply data offered for the requester to pull; the buffer is
				// kept until RDMA_DONE (RFC 5666 §11).
				RegisteredBuffer chunk = lease(BufferRole.READ_CHUNK, item.length());
				readBuffers.add(chunk);
				chunk.buffer().put(0, item.data(message), 0, item.length());
				reads.add(new ReadSegment(item.offset(), advertise(chunk), item.length(), chunk.address()));
				moved.add(item);
			}
		}
		for (int i = returned.size(); i < offered.size(); i++) {
			// An unused Write chunk goes back with its segments emptied.
			List<RdmaSegment> empty = new ArrayList<>();
			for (RdmaSegment segment : offered.get(i).segments()) {
				empty.add(new RdmaSegment(segment.handle(), 0, segment.offset()));
			}
			returned.add(new WriteChunk(empty));
		}
		ByteBuffer inline = removeItems(message, items, moved);
		int threshold = sendThreshold(context.version);
		TransportHeader header = (context.version == RpcRdmaConstants.VERSION_1)
				? new RdmaMsg(context.xid, this.grant, ChunkAssembler.lists(reads, returned, null))
				: new Rdma2Msg(context.xid, this.grant, ChunkAssembler.lists(reads, returned, null));
		ByteBuffer payload = inline;
		if (TransportHeaderEncoder.encodedLength(header) + inline.remaining() > threshold) {
			WriteChunk replyChunk = context.lists.replyChunk();
			boolean fitsReplyChunk = replyChunk != null && inline.remaining() <= replyChunk.totalLength();
			if (!fitsReplyChunk && this.config.replyDataInReadChunks()
					&& context.version == RpcRdmaConstants.VERSION_1) {
				// RFC 5666 §5.1: the long reply as a Position-Zero Read chunk the requester
				// pulls, acknowledged with RDMA_DONE.
				RegisteredBuffer chunk;
				try {
					chunk = lease(BufferRole.READ_CHUNK, inline.remaining());
				}
				catch (TransportException ex) {
					for (RegisteredBuffer buffer : readBuffers) {
						buffer.release();
					}
					throw ex;
				}
				readBuffers.add(chunk);
				chunk.buffer().put(0, inline, inline.position(), inline.remaining());
				List<ReadSegment> withZero = new ArrayList<>(reads.size() + 1);
				withZero.add(new ReadSegment(0, advertise(chunk), inline.remaining(), chunk.address()));
				withZero.addAll(reads);
				header = new RdmaNomsg(context.xid, this.grant, new ChunkLists(withZero, returned, null));
				payload = null;
			}
			else if (!fitsReplyChunk) {
				for (RegisteredBuffer buffer : readBuffers) {
					buffer.release();
				}
				throw new MessageTooLargeException("The reply to XID 0x" + Integer.toHexString(context.xid) + " needs "
						+ inline.remaining() + " bytes but the requester accepts " + threshold + " inline and offered "
						+ ((replyChunk == null) ? "no Reply chunk" : "a Reply chunk of " + replyChunk.totalLength()));
			}
			else {
				// RFC 8166 §3.5.4 Long Reply: the whole reply goes into the Reply chunk.
				RegisteredBuffer bulk = lease(BufferRole.LOCAL_BULK, inline.remaining());
				buffers.add(bulk);
				WriteChunk written = new WriteChunk(writeInto(inline, replyChunk.segments(), bulk));
				this.counters.writeChunksFilled.decrement();
				this.counters.replyChunksFilled.increment();
				header = (context.version == RpcRdmaConstants.VERSION_1)
						? new RdmaNomsg(context.xid, this.grant, new ChunkLists(reads, returned, written))
						: new Rdma2Nomsg(context.xid, this.grant, new ChunkLists(reads, returned, written));
				payload = null;
			}
		}
		int invalidate = (peerAcceptsInvalidate() && readBuffers.isEmpty()) ? context.firstAdvertisedStag() : 0;
		boolean awaitDone = !readBuffers.isEmpty();
		if (awaitDone) {
			DoneWait wait = new DoneWait(context.xid, readBuffers, done);
			DoneWait earlier = this.awaitingDone.put(context.xid, wait);
			if (earlier != null) {
				// RDMA_DONE names a reply by its XID alone (RFC 5666 §11): a requester that reuses
				// the XID of a reply whose chunks it has not acknowledged can no longer say which
				// one it means. The earlier reply's chunks are reclaimed now, as if its RDMA_DONE
				// had not come in time; its credit and buffers come back.
				earlier.finish(false);
			}
			wait.timer = TransportTimers.TIMER.schedule(() -> {
				if (this.awaitingDone.remove(context.xid, wait)) {
					wait.finish(false);
				}
			}, this.config.doneTimeout().toNanos(), TimeUnit.NANOSECONDS);
		}
		else {
			// The credit is free again before the requester can see the reply (RFC 5666 §3.3).
			this.outstanding.decrementAndGet();
		}
		try {
			sendReplyMessage(header, payload, invalidate, buffers, awaitDone, done);
		}
		catch (TransportException ex) {
			// Not sent: undo the bookkeeping above so the caller's error reply settles the credit.
			if (awaitDone) {
				DoneWait wait = this.awaitingDone.remove(context.xid);
				if (wait != null) {
					wait.timer.cancel(false);
					for (RegisteredBuffer buffer : wait.buffers) {
						buffer.release();
					}
				}
			}
			else {
				this.outstanding.incrementAndGet();
			}
			throw ex;
		}
	}

	private void sendReplyMessage(TransportHeader header, ByteBuffer payload, int invalidate,
			List<RegisteredBuffer> buffers, boolean awaitDone, CompletableFuture<Void> done) {
		sendMessage(header, payload, invalidate, (ok) -> {
			for (RegisteredBuffer buffer : buffers) {
				buffer.release();
			}
			if (!awaitDone) {
				if (ok) {
					done.complete(null);
				}
				else {
					done.completeExceptionally(new TransportClosedException("The reply could not be sent"));
				}
			}
		});
	}

	/**
	 * The Payload stream (RFC 8166 §3.4.6): the message without the items moved into chunks,
	 * with the data of items carried apart that stayed inline put in their place.
	 * @param items every item, in order
	 * @param moved those moved into chunks, in the same order
	 */
	private static ByteBuffer removeItems(ByteBuffer message, List<DdpRange> items, List<DdpRange> moved) {
		int size = message.remaining();
		int next = 0;
		for (DdpRange item : items) {
			if (next < moved.size() && moved.get(next) == item) {
				size -= item.paddedEnd() - item.offset();
				next++;
			}
			else if (item.isApart()) {
				size += item.paddedLength();
			}
		}
		if (size == message.remaining() && moved.isEmpty()) {
			return message.duplicate();
		}
		ByteBuffer out = ByteBuffer.allocate(size);
		int base = message.position();
		int from = 0;
		next = 0;
		for (DdpRange item : items) {
			boolean isMoved = next < moved.size() && moved.get(next) == item;
			if (isMoved) {
				next++;
			}
			else if (!item.isApart()) {
				continue;
			}
			out.put(message.slice(base + from, item.offset() - from));
			if (!isMoved) {
				// XDR padding after the data is zero (RFC 4506 §4.10): a fresh buffer is.
				out.put(item.source().duplicate());
				out.position(out.position() + item.paddedLength() - item.length());
			}
			from = item.paddedEnd();
		}
		out.put(message.slice(base + from, message.remaining() - from));
		return out.flip();
	}

	@Override
	void onFailure(TransportException cause) {
		if (this.backward != null) {
			this.backward.fail(cause);
		}
		for (DoneWait wait : new ArrayList<>(this.awaitingDone.values())) {
			if (this.awaitingDone.remove(wait.xid, wait)) {
				wait.finish(false);
			}
		}
		int held = this.grant;
		if (held > 0) {
			this.budget.release(held);
		}
	}

	/**
	 * One received call until its reply is sent. A call with chunks gets a context of its own;
	 * a chunk-less one (see {@link #acceptChunkless}) a recycled context holding a copy of the
	 * RPC message, which goes back to the free list only when both holds are gone: the
	 * transport's (its reply's Send completed, or it was dropped or refused without a Send)
	 * and the RPC layer's ({@link #release()}). A context that took any other way (a reply
	 * with chunks, a failing executor or RPC layer) is never reused, so nothing that may still
	 * refer to it can reach a later call.
	 */
	private final class CallContext implements ReplySender, Runnable, SendOwner {

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

		CallContext(ChunkedHeader header, OpaquePadding padding) {
			this.padding = padding;
			this.xid = header.xid();
			this.version = header.version();
			this.lists = header.chunkLists();
			this.pooled = false;
		}

		CallContext(int capacity) {
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
				RpcRdmaServerConnection.this.handler.onCall(this.call, this);
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
			return this.pooled && this.reusable
					&& CHUNKLESS_HEADER_LENGTH + message.remaining() <= sendThreshold(this.version);
		}

		private CompletableFuture<Void> replyGenerally(OutboundReply reply) {
			// The general path keeps references to this context beyond the reply (the RDMA_DONE
			// timer): never reuse it.
			this.reusable = false;
			try {
				return sendReply(this, reply);
			}
			finally {
				// The reply was copied out; the RPC layer is done with the call's message.
				releaseMessage();
			}
		}

		private void sendChunklessReply(ByteBuffer message) {
			if (!isUsable()) {
				RpcRdmaServerConnection.this.outstanding.decrementAndGet();
				TransportException cause = failure();
				settle((cause != null) ? cause : new TransportClosedException("The connection is closed"));
				return;
			}
			this.sendCompleted = false;
			// The credit is free again before the requester can see the reply (RFC 5666 §3.3).
			RpcRdmaServerConnection.this.outstanding.decrementAndGet();
			try {
				sendChunkless(this.xid, this.version, RpcRdmaServerConnection.this.grant, message, this);
			}
			catch (TransportException ex) {
				// Not sent: the requester learns it with RDMA_ERROR, as on the general path.
				RpcRdmaServerConnection.this.outstanding.incrementAndGet();
				answerWithError(this.version, this.xid);
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
				RpcRdmaServerConnection.this.releasePlacement(this.placedShare);
			}
		}

		@Override
		public CompletableFuture<Void> replyTooLarge(long size) {
			if (!this.answered.compareAndSet(false, true)) {
				return CompletableFuture.failedFuture(alreadyAnswered());
			}
			// RFC 8166 §4.5.3: a reply the requester's resources cannot hold is refused with
			// RDMA_ERROR at once rather than dropped.
			answerWithError(this.version, this.xid);
			releaseHold();
			return isUsable() ? CompletableFuture.completedFuture(null) : CompletableFuture.failedFuture(failure());
		}

		@Override
		public java.net.InetSocketAddress peerAddress() {
			return remoteAddress();
		}

		@Override
		public BackwardCalls backwardCalls() {
			return RpcRdmaServerConnection.this.backward;
		}

		@Override
		public Object connection() {
			return RpcRdmaServerConnection.this;
		}

		@Override
		public CompletableFuture<Void> connectionClosed() {
			return RpcRdmaServerConnection.this.closeFuture;
		}

		@Override
		public ConfigRdmaReply configureInBand(ConfigRdmaRequest request) {
			return RpcRdmaServerConnection.this.configureInBand(request);
		}

		@Override
		public void drop() {
			if (this.answered.compareAndSet(false, true)) {
				releaseMessage();
				RpcRdmaServerConnection.this.outstanding.decrementAndGet();
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
				giveBack(this);
			}
		}

	}

	/** A reply whose Read chunks the requester is pulling (RFC 5666 §11). */
	private final class DoneWait {

		final int xid;

		final List<RegisteredBuffer> buffers;

		final CompletableFuture<Void> done;

		volatile ScheduledFuture<?> timer;

		DoneWait(int xid, List<RegisteredBuffer> buffers, CompletableFuture<Void> done) {
			this.xid = xid;
			this.buffers = buffers;
			this.done = done;
		}

		void finish(boolean received) {
			ScheduledFuture<?> scheduled = this.timer;
			if (scheduled != null) {
				scheduled.cancel(false);
			}
			// Releasing rotates the STags: a late RDMA Read now fails (RFC 5666 §11).
			for (RegisteredBuffer buffer : this.buffers) {
				buffer.release();
			}
			RpcRdmaServerConnection.this.outstanding.decrementAndGet();
			if (received) {
				this.done.complete(null);
			}
			else {
				this.done.completeExceptionally(new TransportClosedException("No RDMA_DONE for XID 0x"
						+ Integer.toHexString(this.xid) + " arrived; its Read chunk buffers were reclaimed"));
			}
		}

	}

}

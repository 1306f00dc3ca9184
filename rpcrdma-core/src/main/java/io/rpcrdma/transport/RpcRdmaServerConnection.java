package io.rpcrdma.transport;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

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
import io.rpcrdma.protocol.RdmaMsgp;
import io.rpcrdma.protocol.RdmaNomsg;
import io.rpcrdma.protocol.ReadChunk;
import io.rpcrdma.protocol.RpcRdmaConstants;
import io.rpcrdma.protocol.TraceContext;
import io.rpcrdma.protocol.TraceContextOption;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.protocol.WriteChunk;
import io.rpcrdma.protocol.ccp.ConfigRdmaReply;
import io.rpcrdma.protocol.ccp.ConfigRdmaRequest;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.xdr.OpaquePadding;

/**
 * The responder end of one RPC-over-RDMA connection: validates incoming headers (answering
 * ERR_VERS, ERR_CHUNK / RDMA_ERR_BAD_HEADER, RDMA_ERR_INVAL_OPTION), enforces and grants
 * credits, and hands complete calls, each in a {@link CallContext}, to the
 * {@link InboundCallHandler}; Linux's {@code svc_rdma_recvfrom.c}. The other jobs are split
 * as Linux splits them: {@link ReadChunkPuller} pulls calls' Read chunks within the memory
 * the connection and the server may hold ({@code svc_rdma_rw.c}), and {@link ReplyMarshaller}
 * conveys replies in the requester's version (inline, Write chunks, Reply chunk, or RFC 5666
 * Read chunks awaiting RDMA_DONE; {@code svc_rdma_sendto.c}).
 */
public final class RpcRdmaServerConnection extends RpcRdmaEndpoint {

	private final InboundCallHandler handler;

	private final Executor executor;

	/** The grant, following the load (RFC 8166 §3.3.1), within the shared budget. */
	private final CreditGrant credits;

	/** What the requester may have sent under the grants sent so far. */
	private final CreditHorizon horizon;

	/**
	 * Receives kept beyond the requests the requester may send: one, so that a request beyond
	 * the grant is seen and answered as {@link CreditViolationPolicy} says; with RFC 5666
	 * Read-chunk replies, the configured slack for RDMA_DONE, which takes no credit; and from
	 * the first backward-direction call on, one per backward-direction credit (RFC 8167 §4.3).
	 */
	private volatile int spare;

	/** {@link #spare} before the backward direction is used. */
	private final int spareForward;

	/** {@link #spare} once the backward direction is in use. */
	private final int spareWithBackward;

	/** Whether the receives for backward-direction replies are posted. */
	private volatile boolean backwardReceivesPosted;

	/** Whether the latest request counted by {@link #arrived} was within the grant (completion thread). */
	private boolean withinGrant;

	private final InetSocketAddress remote;

	/** Requests received and not yet answered, RDMA_DONE awaited included (RFC 5666 §3.3). */
	private final AtomicInteger outstanding = new AtomicInteger();

	private final AtomicInteger violations = new AtomicInteger();

	/** Writes replies: inline, Write chunks, Reply chunk, RFC 5666 Read chunks. */
	private final ReplyMarshaller replies;

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

	/** Pulls calls' Read chunks within the connection's and the server's bulk memory. */
	private final ReadChunkPuller reads;

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
	 * @param credits the connection's grant, the budget's floor until the first request (the
	 * caller gives it back if this throws); the receives for the floor are posted here, those
	 * for the grant the first request decides as it arrives
	 */
	RpcRdmaServerConnection(RdmaProvider provider, RegisteredMemoryPool pool, TransportConfig config,
			CreditGrant credits, Executor executor, InboundCallHandler handler, InetSocketAddress remote,
			int backwardCredits, FifoAdmission placements) {
		super(provider, pool, BackwardDirection.withBackwardReceives(config, backwardCredits),
				credits.decided() + spare(config, 0));
		this.reads = new ReadChunkPuller(this, this.config, placements);
		this.handler = handler;
		this.executor = executor;
		this.credits = credits;
		this.horizon = new CreditHorizon(credits.decided());
		this.spare = spare(config, 0);
		this.spareForward = this.spare;
		this.spareWithBackward = spare(config, backwardCredits);
		this.remote = remote;
		this.freeContexts = new CallContext[Math.min(256, Math.max(4, 2 * config.creditsGranted()))];
		this.backward = (backwardCredits > 0) ? new BackwardCalls(this, backwardCredits) : null;
		this.replies = new ReplyMarshaller(this, this.config);
	}

	/**
	 * @param config the forward direction's settings
	 * @param backwardCredits the backward-direction credits
	 * @return the receives a connection keeps beyond its requester's credits
	 */
	private static int spare(TransportConfig config, int backwardCredits) {
		int done = config.replyDataInReadChunks() ? config.receiveCount() - config.creditsGranted() - 1 : 0;
		return 1 + backwardCredits + done;
	}

	/**
	 * Posts the receives for replies to backward-direction calls before the first such call is
	 * sent: RFC 8167 §4.3 has a requester post a receive for each reply before its call can be
	 * answered, and posting it before the Send of the call is enough (the reply is caused by
	 * the call). A connection whose server never calls back thus holds none of them. From then
	 * on they are kept posted with the forward direction's receives.
	 * @throws TransportResourceException if the memory pool has no receive buffer left for them
	 * (the call is not sent; a later one tries again)
	 */
	void postBackwardReceives() {
		if (this.backwardReceivesPosted) {
			return;
		}
		this.spare = this.spareWithBackward;
		if (!postReceivesNow(receiveTarget())) {
			throw new TransportResourceException("The memory pool has no receive buffer left for the replies to "
					+ "backward-direction calls; raise its receive budget (rpcrdma.memory.max-receive)", null);
		}
		this.backwardReceivesPosted = true;
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

	/** @return the backward direction, or {@code null} when the server makes no calls back */
	BackwardCalls backward() {
		return this.backward;
	}

	/** @return the requester's address */
	public InetSocketAddress remoteAddress() {
		return this.remote;
	}

	/**
	 * @return the credits currently granted to this requester, as its replies carry them; 0
	 * before its first request
	 */
	public int grant() {
		return this.credits.current();
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
		return this.replies.awaitingDone();
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

	/** @return who serves the calls */
	InboundCallHandler handler() {
		return this.handler;
	}

	/** A request was answered or dropped: its credit is free again (RFC 5666 §3.3). */
	void requestFinished() {
		this.outstanding.decrementAndGet();
	}

	/** A reply awaiting RDMA_DONE got it or stopped waiting: the requester's credit is free (RFC 5666 §3.3). */
	void replyAcknowledged() {
		this.horizon.acknowledged();
	}

	/** A reply that freed its request's credit could not be sent after all: the credit is held again. */
	void requestUnfinished() {
		this.outstanding.incrementAndGet();
	}

	// ---- receiving ---------------------------------------------------------------------------

	@Override
	void onMessage(HeaderDecodeResult result, ByteBuffer message, int invalidatedStag) {
		publishGrant();
		if (result instanceof HeaderDecodeResult.UnsupportedVersion unsupported) {
			// RFC 5666 §4.2: answer with the versions supported, in one of them.
			sendError(RdmaErrorReplies.forUnsupportedVersion(unsupported, this.config.supportedVersions(),
					this.credits.advertised()));
		}
		else if (result instanceof HeaderDecodeResult.Malformed malformed) {
			sendError(RdmaErrorReplies.forMalformed(malformed, this.credits.advertised()));
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
			this.replies.onDone(done.xid());
			return;
		}
		if (header instanceof Rdma2Optional optional) {
			if (optional.optionType() != TraceContextOption.OPTION_TYPE) {
				// The one optional feature known here is the trace context; every other type is
				// unknown (draft §3.1).
				sendError(RdmaErrorReplies.forInvalidOption(optional, this.credits.advertised()));
				return;
			}
			// From here on the call is the RDMA2_MSG or RDMA2_NOMSG the option wraps, followed
			// by the payload the option's message carries.
			Unwrapped call = unwrap(optional, message, valid);
			if (call == null) {
				sendError(RdmaErrorReplies.forMalformed(RpcRdmaConstants.VERSION_2, optional.xid(),
						this.credits.advertised()));
				return;
			}
			trace = call.context();
			message = call.message();
			valid = call.valid();
			header = valid.header();
		}
		if (header instanceof RdmaErrorHeader error) {
			this.counters.errorReceived(error);
			this.trace.errorReceived(error);
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
		int granted = this.credits.advertised();
		if (header instanceof RdmaMsgp msgp && Integer.compareUnsigned(msgp.align(), 4) > 0
				&& (!msgp.chunkLists().readList().isEmpty()
						|| Integer.toUnsignedLong(msgp.align()) > this.config.receiveBufferSize())) {
			// RFC 5666 §3.9: the RPC layer's decoder skips the padding (InboundCall#padding).
			// Read chunk positions would count a stream the padding shifts, and an alignment
			// beyond the receive buffer cannot be what a sender meant: refuse those.
			sendError(RdmaErrorReplies.forMalformed(header.version(), header.xid(), granted));
			return;
		}
		if (!this.withinGrant) {
			// RFC 8166 §3.3.1: beyond the latest grant the requester had minus its requests in
			// flight, whatever grant this side has chosen since.
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
		this.outstanding.incrementAndGet();
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
		if (!this.horizon.nextAllowed()) {
			// Beyond the grant (RFC 8166 §3.3.1): onValid counts it and answers as configured.
			return false;
		}
		CallContext context = takeContext();
		context.reuse(xid, vers, received, CHUNKLESS_HEADER_LENGTH, length - CHUNKLESS_HEADER_LENGTH);
		if (this.config.inBandCcp() != CcpMode.DISABLED && ConfigRdmaMessages.isCcpCall(context.inline)) {
			giveBack(context);
			return false;
		}
		this.horizon.arrived();
		this.outstanding.incrementAndGet();
		requested(received.getInt(8));
		if (this.version != vers) {
			this.version = vers;
		}
		this.accepted = context;
		return true;
	}

	@Override
	void deliverChunkless() {
		publishGrant();
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
		return new CallContext(this, this.config.receiveBufferSize());
	}

	void giveBack(CallContext context) {
		synchronized (this.freeContexts) {
			if (this.freeCount < this.freeContexts.length) {
				this.freeContexts[this.freeCount++] = context;
			}
		}
	}

	// ---- credits and receives (RFC 8166 §3.3.1) ----------------------------------------------

	/**
	 * Counts a request before its receive is reposted: every message this side answers
	 * (calls, and what it answers with RDMA_ERROR) takes a credit; RDMA_DONE, RDMA_ERROR and
	 * replies to backward-direction calls do not.
	 */
	@Override
	void arrived(HeaderDecodeResult result, ByteBuffer message) {
		if (!takesCredit(result, message)) {
			return;
		}
		this.withinGrant = this.horizon.arrived();
		requested((result instanceof HeaderDecodeResult.Valid valid) ? valid.header().credits() : 0);
	}

	/**
	 * A request asked for {@code credits} (its rdma_credit): the grant follows, and the first
	 * one, the first charged to the budget, covers the requests sent before its reply.
	 */
	private void requested(int credits) {
		if (this.credits.onRequest(credits)) {
			this.horizon.firstGrant(this.credits.decided());
		}
	}

	private static boolean takesCredit(HeaderDecodeResult result, ByteBuffer message) {
		if (result instanceof HeaderDecodeResult.UnsupportedVersion || result instanceof HeaderDecodeResult.Malformed) {
			return true;
		}
		if (!(result instanceof HeaderDecodeResult.Valid valid)) {
			return false;
		}
		TransportHeader header = valid.header();
		if (header instanceof RdmaDone || header instanceof RdmaErrorHeader) {
			return false;
		}
		return header instanceof RdmaNomsg || header instanceof Rdma2Nomsg || header instanceof Rdma2Optional
				|| BackwardDirection.messageType(message, valid.payloadOffset(),
						valid.payloadLength()) != BackwardDirection.REPLY;
	}

	/**
	 * The receives wanted: those the requester may still fill under the grants it was sent,
	 * or the grant decided (posted before a reply can carry it), and the spare ones.
	 */
	@Override
	int receiveTarget() {
		return Math.max(this.horizon.mayStillArrive(), this.credits.decided()) + this.spare;
	}

	/** Lets replies carry the grant decided, now that the receives for it are posted. */
	private void publishGrant() {
		// Until the backward receives are all posted, the forward spare: receives being posted
		// for the backward direction must not look like a shortfall that lowers the grant.
		this.credits.publish(postedReceives() - (this.backwardReceivesPosted ? this.spareWithBackward : this.spareForward));
	}

	/**
	 * Sets a reply's rdma_credit to the grant as it is posted, and counts it in the horizon
	 * first, so that the requester can never send a request the horizon does not allow. A Send
	 * that waits for room on the send queue counts as posted: its place among the replies, the
	 * order the requester processes them in, is fixed when it joins the {@link SendQueueBudget}.
	 */
	@Override
	void postCarryingGrant(RegisteredBuffer buffer, SendWorkRequest request, TransportHeader header) {
		int granted = this.credits.advertised();
		buffer.buffer().putInt(8, granted);
		this.horizon.stamp(granted, header instanceof RdmaErrorHeader, header instanceof ChunkedHeader chunked
				&& !chunked.chunkLists().readList().isEmpty());
		try {
			super.postCarryingGrant(buffer, request, header);
		}
		finally {
			this.horizon.posted();
		}
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
		CallContext context = new CallContext(this, header, padding);
		context.traceContext = trace;
		if (chunks.isEmpty()) {
			if (this.config.inBandCcp() != CcpMode.DISABLED && ConfigRdmaMessages.isCcpCall(payload)) {
				answerInBandConfiguration(context, payload);
				return;
			}
			dispatch(context, payload);
			return;
		}
		this.reads.admit(header, context, chunks, payload);
	}

	/**
	 * RFC 5666 §6.2: answers CONF_RDMA in the transport, takes the requester's sizes as if
	 * they had come in RFC 8797 private data, and returns this side's. The new sizes apply
	 * before the reply goes out, so the requester's next call already meets them.
	 */
	private void answerInBandConfiguration(CallContext context, ByteBuffer call) {
		ByteBuffer reply = ConfigRdmaMessages.answer(call, this::configureInBand);
		context.reply(OutboundReply.inline(reply));
	}

	/**
	 * RFC 5666 §6.2: takes a requester's CONF_RDMA sizes as if they had come in RFC 8797
	 * private data and returns this side's; whether the transport answered the call itself or
	 * the RPC layer did under a security flavor (§11, {@link ReplySender#configureInBand}).
	 */
	ConfigRdmaReply configureInBand(ConfigRdmaRequest request) {
		inlineSizes().applyInBandSizes(ConfigRdmaMessages.size(request.maxCallSendSize()),
				ConfigRdmaMessages.size(request.maxReplySendSize()));
		applyPeerReadDepth(request.maxRdmaRead());
		this.negotiatedInBand = true;
		// align: this side pads nothing beyond XDR's four bytes.
		return new ConfigRdmaReply(this.config.receiveBufferSize(), 4, this.config.maxOutstandingReads());
	}

	/** @return whether the requester configured this connection in band with CCP (RFC 5666 §6) */
	public boolean negotiatedInBand() {
		return this.negotiatedInBand;
	}

	void answerWithError(int version, int xid) {
		this.outstanding.decrementAndGet();
		sendError(RdmaErrorReplies.forMalformed(version, xid, this.credits.advertised()));
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

	void dispatch(CallContext context, ByteBuffer message) {
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

	/** An admitted call's Read chunks gave their memory back: to the server, then to the connection. */
	void releasePlacement(long bytes) {
		this.reads.release(bytes);
	}

	@Override
	boolean underMemoryPressure() {
		return this.reads.underPressure();
	}

	// ---- replying ----------------------------------------------------------------------------

	/** Conveys a reply to a call ({@link ReplyMarshaller}). */
	CompletableFuture<Void> sendReply(CallContext context, OutboundReply reply) {
		return this.replies.send(context, reply);
	}

	@Override
	String role() {
		return "responder";
	}

	@Override
	void onFailure(TransportException cause) {
		if (this.backward != null) {
			this.backward.fail(cause);
		}
		this.replies.reclaimAwaitingDone();
		this.credits.release();
	}

}

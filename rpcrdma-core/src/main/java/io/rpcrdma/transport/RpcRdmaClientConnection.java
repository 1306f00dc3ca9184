package io.rpcrdma.transport;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.LongAdder;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.oncrpc.VersionRange;
import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.ChunkedHeader;
import io.rpcrdma.protocol.ErrVers;
import io.rpcrdma.protocol.HeaderDecodeResult;
import io.rpcrdma.protocol.HeaderLimits;
import io.rpcrdma.protocol.Rdma2ErrBadHeader;
import io.rpcrdma.protocol.Rdma2ErrInvalOption;
import io.rpcrdma.protocol.Rdma2Msg;
import io.rpcrdma.protocol.Rdma2Nomsg;
import io.rpcrdma.protocol.Rdma2Optional;
import io.rpcrdma.protocol.RdmaDone;
import io.rpcrdma.protocol.RdmaErrChunk;
import io.rpcrdma.protocol.RdmaErrorHeader;
import io.rpcrdma.protocol.RdmaErrorReplies;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.RdmaMsgp;
import io.rpcrdma.protocol.RdmaNomsg;
import io.rpcrdma.protocol.RdmaSegment;
import io.rpcrdma.protocol.ReadChunk;
import io.rpcrdma.protocol.ReadSegment;
import io.rpcrdma.protocol.Rfc8797PrivateData;
import io.rpcrdma.protocol.RpcRdmaConstants;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.protocol.TransportHeaderEncoder;
import io.rpcrdma.protocol.TraceContextOption;
import io.rpcrdma.protocol.WriteChunk;
import io.rpcrdma.protocol.ccp.ConfigRdmaReply;
import io.rpcrdma.protocol.ccp.ConfigRdmaRequest;
import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.xdr.OpaquePadding;

/**
 * The requester end of one RPC-over-RDMA connection: marshals calls (inline, Read chunks,
 * Position-Zero Read chunk for long calls, Write chunks, Reply chunk), holds them by XID
 * until their replies arrive, keeps the {@link CreditWindow}, and negotiates the version
 * (draft-cel-nfsv4-rpcrdma-version-two §5: try the preferred one, continue within the
 * responder's range after ERR_VERS, remember the answer for reconnects).
 */
public final class RpcRdmaClientConnection extends RpcRdmaEndpoint implements RpcTransport {

	/** RFC 8166 §3.3.2: what any receiver accepts before anything is known about it. */
	private static final int FIRST_MESSAGE_LIMIT = 1024;

	/** The most finished calls a connection keeps for reuse. */
	private static final int MAX_FREE_CALLS = 256;

	private final InetSocketAddress remote;

	private final PeerVersionCache versionCache;

	private final CreditWindow credits;

	/** Calls by XID, sent or waiting for a credit; guarded by itself. */
	private final LongKeyTable<PendingCall> pending;

	/** Finished calls kept for reuse; guarded by itself. */
	private final PendingCall[] free;

	private int freeCount;

	/** The largest message copy a recycled call keeps: the bigger inline threshold. */
	private final int keptMessageLimit;

	// A chunk-less reply taken by acceptChunkless, told by deliverChunkless on the same
	// completion thread right after the receive was reposted.
	private PendingCall inlineCall;

	private ByteBuffer inlineMessage;

	private int inlineVersion;

	private volatile int version;

	private volatile boolean versionConfirmed;

	private volatile boolean negotiatedInBand;

	/** Whether this connection is to be configured with CCP (RFC 5666 §6), set once connected. */
	private volatile boolean wantsInBand;

	/** Whether a message went out before any reply confirmed the version. */
	private volatile boolean unconfirmedSent;

	/**
	 * Whether the responder answered the trace-context option with RDMA_ERR_INVAL_OPTION
	 * (draft-cel-nfsv4-rpcrdma-version-two-00 §3.1): it is not offered again on this connection.
	 */
	private volatile boolean traceContextRefused;

	/** Serves backward-direction calls (RFC 8167), or {@code null} to answer them PROG_UNAVAIL. */
	private final BackwardCallHandler backwardHandler;

	/** The backward-direction credits this side grants in its replies (RFC 8167 §4.1). */
	private final int backwardGrant;

	/** Backward-direction calls received and not yet answered. */
	private final AtomicInteger backwardOutstanding = new AtomicInteger();

	private final LongAdder backwardCalls = new LongAdder();

	private RpcRdmaClientConnection(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress remote,
			TransportConfig config, PeerVersionCache versionCache, BackwardCallHandler backwardHandler,
			int backwardCredits) {
		super(provider, pool, withBackwardReceives(config, backwardHandler, backwardCredits));
		this.backwardHandler = backwardHandler;
		this.backwardGrant = (backwardHandler != null) ? backwardCredits : BackwardDirection.CREDITS_WITHOUT_HANDLER;
		this.remote = remote;
		this.versionCache = versionCache;
		this.credits = new CreditWindow(config.creditsRequested());
		this.pending = new LongKeyTable<>(config.creditsRequested());
		this.free = new PendingCall[Math.max(4, Math.min(MAX_FREE_CALLS, 2 * config.creditsRequested()))];
		this.keptMessageLimit = Math.max(config.inlineThreshold(RpcRdmaConstants.VERSION_1),
				config.inlineThreshold(RpcRdmaConstants.VERSION_2));
		int remembered = versionCache.get(remote);
		this.version = config.supportedVersions().contains(remembered) && remembered != 0 ? remembered
				: config.preferredVersion();
		this.versionConfirmed = false;
	}

	/**
	 * Connects to a responder, sending RFC 8797 private data, with the process-wide
	 * {@link PeerVersionCache}.
	 * @param provider the RDMA provider
	 * @param pool registered memory; its receive buffers must hold
	 * {@link TransportConfig#receiveBufferSize()}
	 * @param remote where the responder listens
	 * @param config the settings
	 * @return the connection once established
	 */
	public static CompletableFuture<RpcRdmaClientConnection> connect(RdmaProvider provider, RegisteredMemoryPool pool,
			InetSocketAddress remote, TransportConfig config) {
		return connect(provider, pool, remote, config, PeerVersionCache.shared());
	}

	/**
	 * Connects to a responder.
	 * @param provider the RDMA provider
	 * @param pool registered memory
	 * @param remote where the responder listens
	 * @param config the settings
	 * @param versionCache where responders' versions are remembered
	 * @return the connection once established
	 */
	public static CompletableFuture<RpcRdmaClientConnection> connect(RdmaProvider provider, RegisteredMemoryPool pool,
			InetSocketAddress remote, TransportConfig config, PeerVersionCache versionCache) {
		return connect(provider, pool, remote, config, versionCache, null, 0);
	}

	/**
	 * Connects to a responder and serves the calls it sends back on the connection (RFC 8167).
	 * @param provider the RDMA provider
	 * @param pool registered memory
	 * @param remote where the responder listens
	 * @param config the settings
	 * @param versionCache where responders' versions are remembered
	 * @param backwardHandler serves backward-direction calls; {@code null} answers each with
	 * PROG_UNAVAIL, one at a time
	 * @param backwardCredits the backward-direction calls the responder may have outstanding at
	 * once (RFC 8167 §4.1), as many receives posted beyond the forward direction's (§4.3);
	 * ignored without a handler
	 * @return the connection once established
	 */
	public static CompletableFuture<RpcRdmaClientConnection> connect(RdmaProvider provider, RegisteredMemoryPool pool,
			InetSocketAddress remote, TransportConfig config, PeerVersionCache versionCache,
			BackwardCallHandler backwardHandler, int backwardCredits) {
		RpcRdmaClientConnection client = new RpcRdmaClientConnection(provider, pool, remote, config, versionCache,
				backwardHandler, backwardCredits);
		ConnectParameters parameters = new ConnectParameters(remote, client.localPrivateData(), config.connectTimeout(),
				client::onConnectionEvent);
		return provider.connect(client.qp, parameters).handle((connection, error) -> {
			if (error != null) {
				client.fail(new TransportClosedException("Connecting to " + remote + " failed: " + error.getMessage()));
				throw new TransportClosedException("Connecting to " + remote + " failed: " + error.getMessage());
			}
			client.acceptPeerPrivateData(connection.remotePrivateData());
			client.connection = connection;
			if (!connection.isConnected()) {
				client.fail(new TransportClosedException("The connection to " + remote + " went down at once"));
			}
			return client;
		}).thenCompose((client1) -> {
			client1.wantsInBand = client1.needsInBandConfiguration(provider);
			return client1.wantsInBand ? client1.negotiateInBand() : CompletableFuture.completedFuture(client1);
		});
	}

	/**
	 * RFC 8167 §4.3: the requester posts a receive for every backward-direction call it
	 * grants, beyond those for its forward replies. Without a handler it grants one, which the
	 * receive kept for RDMA_ERROR replies covers.
	 */
	private static TransportConfig withBackwardReceives(TransportConfig config, BackwardCallHandler handler,
			int credits) {
		if (handler == null) {
			return config;
		}
		if (credits < 1) {
			throw new IllegalArgumentException("backwardCredits must be at least 1 for a connection that serves backward"
					+ " calls, got " + credits);
		}
		return BackwardDirection.withBackwardReceives(config, credits);
	}

	// ---- in-band connection configuration (RFC 5666 §6) --------------------------------------

	private boolean needsInBandConfiguration(RdmaProvider provider) {
		return switch (this.config.inBandCcp()) {
			case DISABLED -> false;
			case ALWAYS -> true;
			case WHEN_NEEDED -> !this.config.privateData() || !provider.capabilities().privateDataExchange();
		};
	}

	/**
	 * Sends CONF_RDMA before any RPC (RFC 5666 §6.1: the requester assumes one message of 1 KB
	 * until the reply) and raises the thresholds to what both sides support. A responder that
	 * does not speak CCP answers with an RPC error, drops the call or sends nonsense: the
	 * connection then keeps the version defaults, after at most {@code ccpTimeout}.
	 */
	private CompletableFuture<RpcRdmaClientConnection> negotiateInBand() {
		int xid = java.util.concurrent.ThreadLocalRandom.current().nextInt();
		ConfigRdmaRequest request = inBandRequest();
		OutboundCall call = new OutboundCall(CcpExchange.call(xid, request), List.of(), List.of(),
				CcpExchange.MAX_REPLY_SIZE);
		return call(call).orTimeout(this.config.ccpTimeout().toNanos(), TimeUnit.NANOSECONDS)
			.handle((reply, error) -> {
				if (error != null) {
					// Not answered in time: give the credit back; a late reply finds no call.
					abandon(xid, error);
				}
				else {
					CcpExchange.readReply(reply.message(), xid).ifPresent(this::applyInBandReply);
				}
				TransportException failure = failure();
				if (failure != null) {
					throw failure;
				}
				return this;
			});
	}

	private void applyInBandReply(ConfigRdmaReply reply) {
		// The responder sends no more than the maxreply_sendsize this side asked for, which is
		// its own receive size; it receives up to the maxcall_sendsize it returned (§6.2).
		applyInBandSizes(this.config.receiveBufferSize(), CcpExchange.size(reply.maxCallSendSize()));
		applyPeerReadDepth(reply.maxRdmaRead());
		this.negotiatedInBand = true;
	}

	/**
	 * Whether this connection is to be configured in band (RFC 5666 §6) and is not yet: its
	 * provider could not exchange RFC 8797 private data, or configuration asks for CCP always,
	 * and no unprotected CONF_RDMA was answered at connection time. A server with a security
	 * policy answers CONF_RDMA only under an RPC security flavor (§11), which an RPC layer
	 * that has one sends after its context exists ({@link #applyInBandConfiguration}).
	 * @return whether CCP is still wanted
	 */
	public boolean wantsInBandConfiguration() {
		return this.wantsInBand && !this.negotiatedInBand;
	}

	/**
	 * @return the CONF_RDMA arguments this side sends (RFC 5666 §6.2): its receive size both
	 * ways, and how many RDMA Reads it lets the responder have outstanding
	 */
	public ConfigRdmaRequest inBandRequest() {
		int size = this.config.receiveBufferSize();
		return new ConfigRdmaRequest(size, size, this.config.maxOutstandingReads());
	}

	/**
	 * Applies the responder's answer to a CONF_RDMA call an RPC layer sent under a security
	 * flavor (RFC 5666 §11), as the answer to the transport's own call would be.
	 * @param reply the responder's values
	 * @return false, applying nothing, when the reply's call size is below the 1024 bytes every
	 * receiver supports (RFC 8166 §3.3.2): a broken peer, whose other values are not trusted either
	 */
	public boolean applyInBandConfiguration(ConfigRdmaReply reply) {
		if (reply.maxCallSendSize() < Rfc8797PrivateData.MIN_SIZE) {
			return false;
		}
		applyInBandReply(reply);
		return true;
	}

	/** @return whether the inline sizes were negotiated in band with CCP (RFC 5666 §6) */
	public boolean negotiatedInBand() {
		return this.negotiatedInBand;
	}

	private void abandon(int xid, Throwable why) {
		PendingCall pc;
		synchronized (this.pending) {
			pc = this.pending.remove(xid);
		}
		if (pc != null) {
			completeRemoved(pc, null, why);
		}
	}

	// ---- RpcTransport ------------------------------------------------------------------------

	@Override
	public CompletableFuture<InboundReply> call(OutboundCall call) {
		FutureCompletion future = new FutureCompletion(call.xid());
		call(call, future);
		return future;
	}

	/**
	 * Conveys a call and tells {@code completion} its outcome. A small inline call with a
	 * credit free allocates nothing here: its {@link PendingCall} and message copy are reused,
	 * the pending table is keyed by the primitive XID, and the header is written in place.
	 */
	@Override
	public void call(OutboundCall call, CallCompletion completion) {
		TransportException failure = failure();
		if (failure != null) {
			completion.failed(failure);
			return;
		}
		PendingCall pc = obtain(call, completion);
		int xid = pc.xid;
		// RFC 5666 §3.3: a credit taken now sends the call at once; only without one does the
		// call wait in the window's queue.
		boolean credited = this.credits.tryAcquire();
		pc.creditHeld = credited;
		PendingCall existing;
		pc.holds = 2;
		synchronized (this.pending) {
			existing = this.pending.putIfAbsent(xid, pc);
		}
		if (existing != null) {
			if (credited) {
				pc.creditHeld = false;
				this.credits.release();
			}
			pc.holds = 1;
			release(pc);
			completion.failed(new IllegalArgumentException(
					"XID 0x" + Integer.toHexString(xid) + " is already outstanding on this connection"));
			return;
		}
		if (!isUsable()) {
			// fail() may have run between the check above and the insertion.
			if (removePending(pc)) {
				TransportException cause = failure();
				completeRemoved(pc, null, (cause != null) ? cause
						: new TransportClosedException("The connection failed while the call was being queued"));
			}
			release(pc);
			return;
		}
		if (credited) {
			send(pc);
			release(pc);
			return;
		}
		this.credits.acquire(this.config.creditWaitTimeout()).whenComplete((ignored, error) -> {
			try {
				if (error != null) {
					finish(pc, null, error);
					return;
				}
				boolean stillPending;
				synchronized (this.pending) {
					// Under the table's lock, so finish() either sees the credit or never runs.
					stillPending = this.pending.get(pc.xid) == pc;
					pc.creditHeld = stillPending;
				}
				if (stillPending) {
					send(pc);
				}
				else {
					this.credits.release();
				}
			}
			finally {
				release(pc);
			}
		});
	}

	/** Takes a call from the free list, or makes one, and copies the message into it. */
	private PendingCall obtain(OutboundCall call, CallCompletion completion) {
		PendingCall pc = null;
		synchronized (this.free) {
			if (this.freeCount > 0) {
				pc = this.free[--this.freeCount];
				this.free[this.freeCount] = null;
			}
		}
		if (pc == null) {
			pc = new PendingCall();
		}
		pc.reset(call, completion, this.keptMessageLimit);
		return pc;
	}

	/**
	 * Drops one hold on a call: the calling thread's, the pending table's, or one taken by
	 * {@link #borrow}. The last hold returns it to the free list, as no path can reach it
	 * any more: it is in no table, no thread sends it and no completion thread reads it.
	 */
	private void release(PendingCall pc) {
		if (PendingCall.HOLDS.decrementAndGet(pc) != 0 || !pc.recyclable) {
			return;
		}
		pc.clear();
		synchronized (this.free) {
			if (this.freeCount < this.free.length) {
				this.free[this.freeCount++] = pc;
			}
		}
	}

	/** Looks a call up by XID and holds it, so it cannot be reused before {@link #release}. */
	private PendingCall borrow(int xid) {
		synchronized (this.pending) {
			PendingCall pc = this.pending.get(xid);
			if (pc != null) {
				PendingCall.HOLDS.incrementAndGet(pc);
			}
			return pc;
		}
	}

	private boolean removePending(PendingCall pc) {
		synchronized (this.pending) {
			return this.pending.remove(pc.xid, pc);
		}
	}

	private boolean isPending(PendingCall pc) {
		synchronized (this.pending) {
			return this.pending.get(pc.xid) == pc;
		}
	}

	@Override
	public boolean isOpen() {
		return isUsable() && this.connection != null;
	}

	@Override
	public CompletableFuture<Void> closeFuture() {
		return this.closeFuture;
	}

	@Override
	public void close() {
		fail(new TransportClosedException("The connection was closed locally"));
	}

	/** @return the version calls are sent in now */
	public int version() {
		return this.version;
	}

	/** @return whether a reply has confirmed the version */
	public boolean isVersionConfirmed() {
		return this.versionConfirmed;
	}

	/** @return the credit window */
	public CreditWindow credits() {
		return this.credits;
	}

	/** @return the responder's address */
	public InetSocketAddress remoteAddress() {
		return this.remote;
	}

	/** @return the inline threshold for calls in the current version */
	public int sendThreshold() {
		return sendThreshold(this.version);
	}

	// ---- marshalling ---------------------------------------------------------------------

	private void send(PendingCall pc) {
		try {
			marshalAndSend(pc);
			if (pc.hasBuffers() && !isPending(pc)) {
				// The connection failed while the call was being marshalled: whatever was
				// leased after finish() released the call's buffers is released here.
				pc.releaseBuffers();
			}
		}
		catch (RuntimeException ex) {
			finish(pc, null, (ex instanceof TransportException te) ? te
					: new TransportException("Sending XID 0x" + Integer.toHexString(pc.xid) + " failed: " + ex, ex));
		}
	}

	private void marshalAndSend(PendingCall pc) {
		int vers = this.version;
		pc.version = vers;
		if (!this.versionConfirmed) {
			this.unconfirmedSent = true;
		}
		int threshold = sendThreshold(vers);
		if (!this.versionConfirmed && vers != RpcRdmaConstants.VERSION_1) {
			threshold = Math.min(threshold, FIRST_MESSAGE_LIMIT);
		}
		ByteBuffer message = pc.message;
		OutboundCall call = pc.call;
		if (call.readChunkItems().isEmpty() && call.registeredItems().isEmpty() && call.writeChunkSizes().isEmpty()
				&& call.maxReplySize() + CHUNKLESS_HEADER_LENGTH <= receiveThreshold(vers)
				&& CHUNKLESS_HEADER_LENGTH + message.remaining() <= threshold) {
			// The common small call: RDMA_MSG with three empty chunk lists (RFC 8166 §4.1.2),
			// its reply expected inline, written without building a header.
			pc.readChunksSent = false;
			if (call.traceContext() != null && offersTraceContext(vers)
					&& sendTraced(pc, chunked(pc.xid, vers, false, ChunkLists.EMPTY), message, threshold)) {
				return;
			}
			pc.traceContextOffered = false;
			sendChunkless(pc.xid, vers, this.config.creditsRequested(), message);
			return;
		}
		int base = message.position();
		List<RegisteredItem> registered = pc.call.registeredItems();
		List<ReadSegment> reads = (pc.call.readChunkItems().isEmpty() && registered.isEmpty()) ? List.of()
				: new ArrayList<>();
		int moved = 0;
		for (DdpRange item : pc.call.readChunkItems()) {
			if (item.length() == 0) {
				continue;
			}
			RegisteredBuffer buffer = lease(BufferRole.READ_CHUNK, item.length());
			pc.add(buffer);
			buffer.buffer().put(0, message, base + item.offset(), item.length());
			reads.add(new ReadSegment(item.offset() + registeredBefore(registered, item.offset()), advertise(buffer),
					item.length(), buffer.address()));
			moved += item.paddedLength();
		}
		if (!registered.isEmpty()) {
			addRegisteredItems(registered, reads);
		}
		List<WriteChunk> writes = pc.call.writeChunkSizes().isEmpty() ? List.of() : new ArrayList<>();
		for (int size : pc.call.writeChunkSizes()) {
			RegisteredBuffer buffer = lease(BufferRole.WRITE_CHUNK, size);
			pc.add(buffer);
			pc.addWriteBuffer(buffer);
			writes.add(WriteChunk.of(new RdmaSegment(advertise(buffer), size, buffer.address())));
		}
		WriteChunk reply = null;
		int replyHeader = RpcRdmaConstants.FIXED_HEADER_LENGTH
				+ TransportHeaderEncoder.encodedLength(ChunkAssembler.lists(List.of(), writes, null));
		if (pc.call.maxReplySize() + replyHeader > receiveThreshold(vers)) {
			RegisteredBuffer buffer = lease(BufferRole.WRITE_CHUNK, pc.call.maxReplySize());
			pc.add(buffer);
			pc.replyBuffer = buffer;
			reply = WriteChunk.of(new RdmaSegment(advertise(buffer), pc.call.maxReplySize(), buffer.address()));
		}
		pc.readChunksSent = !reads.isEmpty();
		int inlineLength = message.remaining() - moved;
		TransportHeader header = chunked(pc.xid, vers, false, ChunkAssembler.lists(reads, writes, reply));
		int headerLength = TransportHeaderEncoder.encodedLength(header);
		ByteBuffer inline = inlineStream(pc, inlineLength);
		if (headerLength + inlineLength <= threshold) {
			sendCall(pc, header, inline, threshold);
			return;
		}
		// RFC 8166 §3.5.3 Long Call: the whole Payload stream goes in a Position-Zero Read
		// chunk and the header travels alone as RDMA_NOMSG.
		RegisteredBuffer buffer = lease(BufferRole.READ_CHUNK, inlineLength);
		pc.add(buffer);
		buffer.buffer().put(0, inline, 0, inlineLength);
		List<ReadSegment> withZero = new ArrayList<>(reads.size() + 1);
		withZero.add(new ReadSegment(0, advertise(buffer), inlineLength, buffer.address()));
		withZero.addAll(reads);
		pc.readChunksSent = true;
		header = chunked(pc.xid, vers, true, new ChunkLists(withZero, writes, reply));
		headerLength = TransportHeaderEncoder.encodedLength(header);
		if (headerLength > threshold) {
			throw new MessageTooLargeException("The transport header of XID 0x" + Integer.toHexString(pc.xid) + " takes "
					+ headerLength + " bytes, more than the " + threshold + "-byte inline threshold; use fewer chunks");
		}
		sendCall(pc, header, null, threshold);
	}

	/** Sends a call with its header, wrapped in the trace-context option where it is offered. */
	private void sendCall(PendingCall pc, TransportHeader header, ByteBuffer payload, int threshold) {
		if (pc.call.traceContext() != null && offersTraceContext(header.version())
				&& sendTraced(pc, header, payload, threshold)) {
			return;
		}
		pc.traceContextOffered = false;
		sendMessage(header, payload, 0, null);
	}

	/**
	 * Sends {@code header} wrapped in the trace-context option (TraceContextOption) if the
	 * wrapped message still fits the inline threshold and its rdma_optinfo the default bound a
	 * receiver puts on it; else sends nothing: the call then goes untraced across the wire.
	 * @return whether it was sent
	 */
	private boolean sendTraced(PendingCall pc, TransportHeader header, ByteBuffer payload, int threshold) {
		byte[] info = TraceContextOption.encode(pc.call.traceContext(), header);
		if (info.length > HeaderLimits.DEFAULT_MAX_OPTIONAL_INFO_LENGTH) {
			return false;
		}
		Rdma2Optional traced = new Rdma2Optional(pc.xid, header.credits(), TraceContextOption.OPTION_TYPE, info);
		int payloadLength = (payload != null) ? payload.remaining() : 0;
		if (TransportHeaderEncoder.encodedLength(traced) + payloadLength > threshold) {
			return false;
		}
		pc.traceContextOffered = true;
		// Counted as the call it wraps (inline message, chunks); sendMessage counts nothing
		// for an RDMA_OPTIONAL.
		count(header, payloadLength);
		sendMessage(traced, payload, 0, null);
		return true;
	}

	/**
	 * Advertises the caller's own registered buffers as Read chunks (zero copy): each at its
	 * XDR position, which counts the data of the registered items before it (RFC 8166
	 * §3.4.4); the read list stays in position order.
	 */
	private void addRegisteredItems(List<RegisteredItem> registered, List<ReadSegment> reads) {
		int before = 0;
		for (RegisteredItem item : registered) {
			if (item.length() > 0) {
				RegisteredBuffer buffer = item.buffer();
				reads.add(new ReadSegment(item.offset() + before, advertise(buffer), item.length(), buffer.address()));
			}
			before += item.paddedLength();
		}
		reads.sort(java.util.Comparator.comparingLong(ReadSegment::unsignedPosition));
	}

	/** The bytes registered items at or before {@code offset} add to the XDR stream. */
	private static int registeredBefore(List<RegisteredItem> registered, int offset) {
		int before = 0;
		for (RegisteredItem item : registered) {
			if (item.offset() > offset) {
				break;
			}
			before += item.paddedLength();
		}
		return before;
	}

	/** The Payload stream: the message without the items moved into Read chunks. */
	private static ByteBuffer inlineStream(PendingCall pc, int inlineLength) {
		ByteBuffer message = pc.message;
		if (pc.call.readChunkItems().isEmpty()) {
			// Read only with absolute gets, so the call's own buffer serves.
			return message;
		}
		ByteBuffer out = ByteBuffer.allocate(inlineLength);
		int base = message.position();
		int from = 0;
		for (DdpRange item : pc.call.readChunkItems()) {
			if (item.length() == 0) {
				continue;
			}
			out.put(message.slice(base + from, item.offset() - from));
			from = item.paddedEnd();
		}
		out.put(message.slice(base + from, message.remaining() - from));
		return out.flip();
	}

	/**
	 * The trace-context option is an optional feature of Version Two (draft §3.1), offered in
	 * Version Two messages only, until the responder refuses it. It may go in the first message
	 * of version negotiation (draft §5 asks for a valid Version Two message, which it is): a
	 * Version One responder, Linux's among them, answers that message ERR_VERS on its version
	 * alone (RFC 8166 §4.3.1) without reading further, and the call goes again in Version One,
	 * where the option is never offered; a Version Two responder that does not know the option
	 * answers RDMA_ERR_INVAL_OPTION and the call goes again plain.
	 */
	private boolean offersTraceContext(int vers) {
		return vers == RpcRdmaConstants.VERSION_2 && !this.traceContextRefused;
	}

	/** @return whether calls on this connection still offer their trace context to the responder */
	public boolean offersTraceContext() {
		return offersTraceContext(this.version);
	}

	private TransportHeader chunked(int xid, int vers, boolean nomsg, ChunkLists lists) {
		int requested = this.config.creditsRequested();
		if (vers == RpcRdmaConstants.VERSION_1) {
			return nomsg ? new RdmaNomsg(xid, requested, lists) : new RdmaMsg(xid, requested, lists);
		}
		return nomsg ? new Rdma2Nomsg(xid, requested, lists) : new Rdma2Msg(xid, requested, lists);
	}

	// ---- receiving -------------------------------------------------------------------------

	@Override
	void onMessage(HeaderDecodeResult result, ByteBuffer message, int invalidatedStag) {
		if (!(result instanceof HeaderDecodeResult.Valid valid)) {
			// RFC 8166 §4.5.2: a requester does not answer what it cannot parse. If the XID of
			// an outstanding call can be read, fail that call rather than let it hang.
			int xid = (result instanceof HeaderDecodeResult.Malformed malformed) ? malformed.xid()
					: (result instanceof HeaderDecodeResult.UnsupportedVersion unsupported) ? unsupported.xid() : 0;
			PendingCall pc = borrow(xid);
			if (pc != null) {
				if (pc.sent()) {
					finish(pc, null, new ChunkValidationException("The reply to XID 0x" + Integer.toHexString(xid)
							+ " has an invalid transport header: " + result));
				}
				release(pc);
			}
			return;
		}
		TransportHeader header = valid.header();
		if (header instanceof Rdma2Optional optional) {
			// No optional features are implemented: every type is unknown (draft §3.1).
			sendMessage(new Rdma2ErrInvalOption(optional.xid(), this.config.creditsRequested()), null, 0, null);
			return;
		}
		if (header instanceof RdmaDone) {
			return;
		}
		if ((header instanceof RdmaMsg || header instanceof Rdma2Msg || header instanceof RdmaMsgp) && BackwardDirection
			.messageType(message, valid.payloadOffset(), valid.payloadLength()) == BackwardDirection.CALL) {
			onBackwardCall((ChunkedHeader) header, message.slice(valid.payloadOffset(), valid.payloadLength()));
			return;
		}
		PendingCall pc = borrow(header.xid());
		if (pc == null) {
			return;
		}
		try {
			if (pc.sent()) {
				onReply(pc, header, valid, message);
			}
		}
		finally {
			release(pc);
		}
	}

	// ---- backward direction (RFC 8167) ------------------------------------------------------

	/**
	 * A call from the responder (RFC 8167 §3.2). Its XID is the responder's, never matched
	 * against this side's calls. It must come inline: a backward call with chunks is refused
	 * with RDMA_ERROR (§7: no Upper-Layer Binding here allows them). A responder that has more
	 * calls outstanding than granted breaks §4.1 and would soon find no receive posted: it is
	 * disconnected, as a requester exceeding its forward grant is.
	 */
	private void onBackwardCall(ChunkedHeader header, ByteBuffer payload) {
		int xid = header.xid();
		ChunkLists lists = header.chunkLists();
		if (!lists.readList().isEmpty() || !lists.writeList().isEmpty() || lists.replyChunk() != null) {
			sendMessage(RdmaErrorReplies.forMalformed(header.version(), xid, this.backwardGrant),
					null, 0, null);
			return;
		}
		int outstanding = this.backwardOutstanding.incrementAndGet();
		if (outstanding > this.backwardGrant) {
			this.backwardOutstanding.decrementAndGet();
			fail(new TransportClosedException("The responder had " + outstanding
					+ " backward-direction calls outstanding, more than the " + this.backwardGrant
					+ " credits granted (RFC 8167 §4.1); disconnected"));
			return;
		}
		this.backwardCalls.increment();
		BackwardCall call = new BackwardCall(this, xid, header.version(), payload);
		if (this.backwardHandler == null) {
			call.reply(BackwardDirection.programUnavailable(xid));
			return;
		}
		try {
			this.backwardHandler.onBackwardCall(call);
		}
		catch (RuntimeException ex) {
			// The handler's own failure: the responder's call ends with its deadline, and the
			// credit comes back.
			call.drop();
		}
	}

	void sendBackwardReply(BackwardCall call, ByteBuffer reply) {
		// The credit is free before the reply is posted: the responder may send its next call
		// as soon as the reply arrives, which can be before the posting thread goes on.
		backwardCallDone();
		int limit = call.replyLimit();
		if (reply.remaining() > limit) {
			throw new MessageTooLargeException("The reply to backward-direction call XID 0x"
					+ Integer.toHexString(call.xid()) + " takes " + reply.remaining() + " bytes, more than the " + limit
					+ " the server receives inline (RFC 8167 §4.2)");
		}
		if (isUsable()) {
			sendChunkless(call.xid(), call.version(), this.backwardGrant, reply);
		}
	}

	void backwardCallDone() {
		this.backwardOutstanding.decrementAndGet();
	}

	/** @return backward-direction calls received and not yet answered */
	public int backwardCallsOutstanding() {
		return this.backwardOutstanding.get();
	}

	/** @return backward-direction calls received so far */
	public long backwardCallsReceived() {
		return this.backwardCalls.sum();
	}

	/** @return the backward-direction credits this side grants (RFC 8167 §4.1) */
	public int backwardGrant() {
		return this.backwardGrant;
	}

	/** A reply to a sent call, which the caller holds. */
	private void onReply(PendingCall pc, TransportHeader header, HeaderDecodeResult.Valid valid, ByteBuffer message) {
		if (header instanceof RdmaErrorHeader error) {
			this.counters.errorReceived(error);
		}
		else {
			// draft-cel-nfsv4-rpcrdma-version-two §5: only a non-error message reports the
			// responder's actual credit limit; until then one message at a time.
			this.credits.updateGrant(header.credits());
		}
		if (header instanceof ErrVers errVers) {
			onErrVers(pc, errVers);
			return;
		}
		if (header instanceof Rdma2ErrInvalOption && pc.traceContextOffered) {
			// draft §3.1: the responder does not know the trace-context option and did not
			// execute the call. Sent again as RDMA_MSG, keeping its credit, and the option is
			// not offered on this connection again.
			this.traceContextRefused = true;
			pc.traceContextOffered = false;
			pc.releaseBuffers();
			send(pc);
			return;
		}
		if (header instanceof RdmaErrorHeader error) {
			finish(pc, null, refusal(pc, error));
			return;
		}
		confirmVersion(header.version());
		ChunkedHeader chunked = (ChunkedHeader) header;
		ChunkLists lists = chunked.chunkLists();
		try {
			OpaquePadding padding = RdmaMsgpPadding.of(header, valid);
			if (padding != null && (!lists.readList().isEmpty() || !lists.writeList().isEmpty()
					|| padding.align() > receiveThreshold(pc.version))) {
				// RFC 5666 §3.9: the decoder skips the padding of an inline reply. Chunk positions
				// would count a stream the padding shifts, and an alignment beyond the receive
				// buffer cannot be what a sender meant: refuse those.
				throw new ChunkValidationException("The reply to XID 0x" + Integer.toHexString(pc.xid)
						+ " is RDMA_MSGP padded to " + padding.align()
						+ " bytes with chunks or beyond the receive buffer, which cannot be undone");
			}
			List<ByteBuffer> writeData = collectWriteChunks(pc, lists);
			if (!lists.readList().isEmpty()) {
				if (header.version() != RpcRdmaConstants.VERSION_1) {
					throw new ChunkValidationException("The Version " + header.version() + " reply to XID 0x"
							+ Integer.toHexString(pc.xid) + " carries Read chunks, which only RFC 5666 replies may");
				}
				// RFC 5666 §3.5 and §5.1: reply data, or the whole long reply at position zero,
				// in Read chunks the requester pulls and acknowledges with RDMA_DONE.
				ByteBuffer inline = lists.hasPositionZeroReadChunk() ? null
						: message.slice(valid.payloadOffset(), valid.payloadLength());
				fetchReplyReadChunks(pc, lists, inline, writeData);
				return;
			}
			ByteBuffer payload;
			if (header instanceof RdmaNomsg || header instanceof Rdma2Nomsg) {
				payload = collectReplyChunk(pc, lists.replyChunk());
			}
			else {
				payload = message.slice(valid.payloadOffset(), valid.payloadLength());
			}
			finish(pc, new InboundReply(pc.xid, header.version(), payload, writeData, padding), null);
		}
		catch (TransportException ex) {
			finish(pc, null, ex);
		}
	}

	/**
	 * What an RDMA_ERROR means for a call. ERR_CHUNK (RDMA_ERR_BAD_HEADER in Version 2) to a
	 * call whose header carried no Read chunk can only be the responder's refusal of a reply
	 * it could not convey (RFC 8166 §4.5.3): this side's headers are well formed, and with no
	 * chunk to pull there is nothing else to refuse.
	 */
	private RdmaErrorReceivedException refusal(PendingCall pc, RdmaErrorHeader error) {
		if ((error instanceof RdmaErrChunk || error instanceof Rdma2ErrBadHeader) && !pc.readChunksSent) {
			return new ReplyTooLargeException(error, receiveThreshold(pc.version),
					(pc.replyBuffer != null) ? pc.call.maxReplySize() : 0, !pc.writeBuffers.isEmpty());
		}
		return new RdmaErrorReceivedException(error);
	}

	private List<ByteBuffer> collectWriteChunks(PendingCall pc, ChunkLists lists) {
		List<WriteChunk> returned = lists.writeList();
		if (returned.isEmpty()) {
			return List.of();
		}
		if (returned.size() > pc.writeBuffers.size()) {
			throw new ChunkValidationException("The reply to XID 0x" + Integer.toHexString(pc.xid) + " returns "
					+ returned.size() + " Write chunks but " + pc.writeBuffers.size() + " were offered");
		}
		List<ByteBuffer> data = new ArrayList<>(returned.size());
		for (int i = 0; i < returned.size(); i++) {
			long length = returned.get(i).totalLength();
			int offered = pc.call.writeChunkSizes().get(i);
			if (length > offered) {
				throw new ChunkValidationException("The reply to XID 0x" + Integer.toHexString(pc.xid) + " claims "
						+ length + " bytes in Write chunk " + i + " of " + offered);
			}
			// Lent in place: the completion reads the data where the responder wrote it, and
			// gives the buffers back when done (CallCompletion's five-argument replied).
			data.add(pc.writeBuffers.get(i).buffer().slice(0, (int) length).asReadOnlyBuffer());
		}
		pc.lendWriteBuffers();
		return data;
	}

	private ByteBuffer collectReplyChunk(PendingCall pc, WriteChunk replyChunk) {
		if (replyChunk == null || pc.replyBuffer == null) {
			throw new ChunkValidationException("RDMA_NOMSG reply to XID 0x" + Integer.toHexString(pc.xid)
					+ " without the Reply chunk that was " + ((pc.replyBuffer == null) ? "never offered" : "offered"));
		}
		long length = replyChunk.totalLength();
		if (length > pc.call.maxReplySize() || length < RpcRdmaConstants.MIN_RPC_MESSAGE_LENGTH) {
			throw new ChunkValidationException("The Reply chunk of XID 0x" + Integer.toHexString(pc.xid) + " claims "
					+ length + " bytes of the " + pc.call.maxReplySize() + " offered");
		}
		byte[] bytes = new byte[(int) length];
		pc.replyBuffer.buffer().get(0, bytes);
		ByteBuffer payload = ByteBuffer.wrap(bytes);
		if (payload.getInt(0) != pc.xid) {
			throw new ChunkValidationException("The Reply chunk of XID 0x" + Integer.toHexString(pc.xid)
					+ " holds a message with XID 0x" + Integer.toHexString(payload.getInt(0)));
		}
		return payload;
	}

	/**
	 * RFC 5666 §3.4 and §11: a responder may return reply data in Read chunks; the requester
	 * pulls them and then sends RDMA_DONE so the responder can free its buffers. The call
	 * keeps its credit until the RDMA_DONE has gone out, because RDMA_DONE takes a receive
	 * at the responder like any other message (RFC 5666 §3.3).
	 */
	private void fetchReplyReadChunks(PendingCall pc, ChunkLists lists, ByteBuffer payload, List<ByteBuffer> writeData) {
		// The callbacks below outlive the reply's handling: this call is never reused.
		pc.recyclable = false;
		List<ReadChunk> chunks = lists.readChunks();
		fetch(chunks, (data) -> {
			ByteBuffer whole;
			try {
				ByteBuffer inline = payload;
				List<ReadChunk> rest = chunks;
				ByteBuffer[] restData = data;
				if (inline == null) {
					inline = data[0];
					rest = chunks.subList(1, chunks.size());
					restData = java.util.Arrays.copyOfRange(data, 1, data.length);
				}
				whole = ChunkAssembler.reassemble(inline, rest, restData, false);
				if (whole.remaining() < RpcRdmaConstants.MIN_RPC_MESSAGE_LENGTH || whole.getInt(0) != pc.xid) {
					throw new ChunkValidationException("The reply pulled for XID 0x" + Integer.toHexString(pc.xid)
							+ " does not begin with that XID");
				}
			}
			catch (TransportException ex) {
				sendDone(pc, null, ex);
				return;
			}
			sendDone(pc, new InboundReply(pc.xid, RpcRdmaConstants.VERSION_1, whole, writeData), null);
		}, (error) -> finish(pc, null, error));
	}

	private void sendDone(PendingCall pc, InboundReply reply, TransportException error) {
		try {
			sendMessage(new RdmaDone(pc.xid, this.config.creditsRequested()), null, 0,
					(ok) -> finish(pc, reply, error));
		}
		catch (TransportException ex) {
			finish(pc, null, ex);
		}
	}

	private void onErrVers(PendingCall pc, ErrVers errVers) {
		VersionRange theirs = errVers.supported();
		VersionRange ours = this.config.supportedVersions();
		int chosen = 0;
		for (int v = ours.high(); v >= ours.low(); v--) {
			if (theirs.contains(v)) {
				chosen = v;
				break;
			}
		}
		if (chosen == 0 || chosen == pc.version) {
			finish(pc, null, (chosen == 0) ? new VersionNegotiationException(ours, theirs)
					: new RdmaErrorReceivedException(errVers));
			return;
		}
		this.version = chosen;
		this.versionCache.put(this.remote, chosen);
		// The call was not executed (RFC 5666 §4.2): send it again in the common version,
		// keeping its credit.
		pc.releaseBuffers();
		send(pc);
	}

	private void confirmVersion(int vers) {
		if (!this.versionConfirmed || this.version != vers) {
			this.version = vers;
			this.versionConfirmed = true;
			this.versionCache.put(this.remote, vers);
		}
	}

	/** Finishes a call still in the table; the caller holds it. */
	private void finish(PendingCall pc, InboundReply reply, Throwable error) {
		if (removePending(pc)) {
			completeRemoved(pc, reply, error);
		}
	}

	/**
	 * Finishes a call its caller just took out of the pending table, so nobody else can: frees
	 * its chunks and credit, tells its completion, and drops the table's hold.
	 */
	private void completeRemoved(PendingCall pc, InboundReply reply, Throwable error) {
		pc.releaseBuffers();
		if (pc.creditHeld) {
			pc.creditHeld = false;
			this.credits.release();
		}
		CallCompletion completion = pc.completion;
		Runnable lent = pc.takeLentBuffers();
		try {
			if (error != null) {
				if (lent != null) {
					lent.run();
				}
				completion.failed(error);
			}
			else if (lent != null) {
				completion.replied(reply.version(), reply.message(), reply.writeChunks(), reply.padding(), lent);
			}
			else {
				completion.replied(reply.version(), reply.message(), reply.writeChunks(), reply.padding());
			}
		}
		finally {
			release(pc);
		}
	}

	/**
	 * The fast path for a chunk-less RDMA_MSG reply (RFC 8166 §4.1.2): takes the sent call with
	 * that XID out of the table and copies the RPC message from the receive buffer into the
	 * completion's own {@linkplain CallCompletion#replyBuffer buffer}, all without allocating.
	 * A reply to no call (late, duplicate, or to one already failed) is dropped, as
	 * {@link #onMessage} drops it; RFC 8166 §4.5.2 asks for no answer.
	 */
	@Override
	boolean acceptChunkless(ByteBuffer received, int length) {
		if (received.getInt(CHUNKLESS_HEADER_LENGTH + 4) != BackwardDirection.REPLY) {
			// A backward-direction call (RFC 8167 §5): onMessage serves it.
			return false;
		}
		int xid = received.getInt(0);
		PendingCall pc;
		synchronized (this.pending) {
			pc = this.pending.get(xid);
			if (pc == null || !pc.sent()) {
				return true;
			}
			this.pending.remove(xid);
		}
		int version = received.getInt(4);
		// draft-cel-nfsv4-rpcrdma-version-two §5: a non-error reply reports the grant and
		// confirms the version.
		this.credits.updateGrant(received.getInt(8));
		confirmVersion(version);
		int messageLength = length - CHUNKLESS_HEADER_LENGTH;
		ByteBuffer offered = null;
		try {
			offered = pc.completion.replyBuffer(messageLength);
		}
		catch (RuntimeException ex) {
			// The completion's own problem; the reply still reaches it in a buffer of ours.
		}
		ByteBuffer reply = (offered != null && offered.capacity() >= messageLength && !offered.isReadOnly())
				? offered.limit(messageLength).position(0) : ByteBuffer.allocate(messageLength);
		reply.put(0, received, CHUNKLESS_HEADER_LENGTH, messageLength);
		this.inlineCall = pc;
		this.inlineMessage = reply;
		this.inlineVersion = version;
		return true;
	}

	@Override
	void deliverChunkless() {
		PendingCall pc = this.inlineCall;
		if (pc == null) {
			return;
		}
		ByteBuffer reply = this.inlineMessage;
		this.inlineCall = null;
		this.inlineMessage = null;
		pc.releaseBuffers();
		if (pc.creditHeld) {
			pc.creditHeld = false;
			this.credits.release();
		}
		try {
			pc.completion.replied(this.inlineVersion, reply, List.of(), null);
		}
		finally {
			release(pc);
		}
	}

	@Override
	void onFailure(TransportException cause) {
		if (this.unconfirmedSent && !this.versionConfirmed && this.version != RpcRdmaConstants.VERSION_1
				&& this.config.supportedVersions().contains(RpcRdmaConstants.VERSION_1)) {
			// draft-cel-nfsv4-rpcrdma-version-two §5.2: the first Version 2 message was lost or
			// dropped; assume the responder lacks Version 2 so the reconnect does not loop.
			this.versionCache.put(this.remote, RpcRdmaConstants.VERSION_1);
		}
		this.credits.close(cause);
		List<PendingCall> calls = new ArrayList<>();
		synchronized (this.pending) {
			this.pending.clear(calls::add);
		}
		RuntimeException thrown = null;
		for (PendingCall pc : calls) {
			try {
				completeRemoved(pc, null, cause);
			}
			catch (RuntimeException ex) {
				// One completion's own failure must not keep the others from being told.
				thrown = ex;
			}
		}
		if (thrown != null) {
			throw thrown;
		}
	}

	/** @return the calls sent or waiting for a credit */
	public int pendingCalls() {
		synchronized (this.pending) {
			return this.pending.size();
		}
	}

	/** @return finished calls kept for reuse, at most the free list's bound */
	int freeCalls() {
		synchronized (this.free) {
			return this.freeCount;
		}
	}
	/**
	 * One call from {@link #call} to its reply; the message is copied so the RPC layer may
	 * reuse its buffer and the call can be sent again after ERR_VERS or once a credit frees.
	 * Reused for call after call: the fields below hold the current call's state, set by
	 * {@link #reset} before the call enters the pending table and dropped by {@link #clear}
	 * once the last hold on it is gone.
	 */
	private static final class PendingCall {

		/**
		 * Who can still reach the call: the calling thread (or its credit wait), the pending
		 * table, and completion threads that {@linkplain #borrow borrowed} it.
		 */
		static final AtomicIntegerFieldUpdater<PendingCall> HOLDS = AtomicIntegerFieldUpdater
			.newUpdater(PendingCall.class, "holds");

		volatile int holds;

		/** Cleared when a path that outlives the reply's handling captured the call. */
		volatile boolean recyclable = true;

		OutboundCall call;

		int xid;

		CallCompletion completion;

		/** The current call's copy, from position 0. */
		ByteBuffer message;

		/** The copy kept from call to call, at most the connection's kept-message limit. */
		private ByteBuffer kept;

		/** Chunk buffers leased for the call; allocated with the first, so an inline call costs none. */
		private List<RegisteredBuffer> buffers;

		/** The Write chunks offered, in order; empty until the first. */
		List<RegisteredBuffer> writeBuffers = List.of();

		/** Gives back Write chunk buffers lent to the reply, until the completion is told. */
		private Runnable lentRelease;

		RegisteredBuffer replyBuffer;

		/** Whether the header sent last carried Read chunks (Position-Zero included). */
		volatile boolean readChunksSent;

		/** Whether the message sent last was the trace-context option (TraceContextOption). */
		volatile boolean traceContextOffered;

		volatile boolean creditHeld;

		volatile int version;

		/**
		 * Takes on a call: copies its message into the kept buffer, grown as needed up to
		 * {@code keptLimit}; a larger message gets a buffer of its own, not kept.
		 */
		void reset(OutboundCall call, CallCompletion completion, int keptLimit) {
			ByteBuffer source = call.message();
			int length = source.remaining();
			ByteBuffer copy;
			if (length > keptLimit) {
				copy = ByteBuffer.allocate(length);
			}
			else {
				if (this.kept == null || this.kept.capacity() < length) {
					int capacity = Math.min(keptLimit, Math.max(length, (this.kept == null) ? 256 : this.kept.capacity() * 2));
					this.kept = ByteBuffer.allocate(capacity);
				}
				copy = this.kept.clear().limit(length);
			}
			copy.put(0, source, source.position(), length);
			this.call = call;
			this.completion = completion;
			this.message = copy;
			this.xid = copy.getInt(0);
			this.recyclable = true;
			this.readChunksSent = false;
			this.traceContextOffered = false;
			this.creditHeld = false;
		}

		/** Drops the finished call's references so nothing of it stays reachable from the free list. */
		void clear() {
			this.call = null;
			this.completion = null;
			this.message = null;
			Runnable lent = takeLentBuffers();
			if (lent != null) {
				// Every path that completes a call takes these; never leak them to the next call.
				lent.run();
			}
		}

		boolean hasBuffers() {
			synchronized (this) {
				return this.buffers != null && !this.buffers.isEmpty();
			}
		}

		boolean sent() {
			return this.creditHeld;
		}

		synchronized void add(RegisteredBuffer buffer) {
			if (this.buffers == null) {
				this.buffers = new ArrayList<>(2);
			}
			this.buffers.add(buffer);
		}

		synchronized void addWriteBuffer(RegisteredBuffer buffer) {
			if (this.writeBuffers.isEmpty()) {
				this.writeBuffers = new ArrayList<>(2);
			}
			this.writeBuffers.add(buffer);
		}

		synchronized void releaseBuffers() {
			if (this.buffers != null) {
				for (RegisteredBuffer buffer : this.buffers) {
					buffer.release();
				}
				this.buffers.clear();
			}
			this.writeBuffers = List.of();
			this.replyBuffer = null;
		}

		/**
		 * The returned Write chunks' buffers leave the call: the reply lends them to the
		 * completion, which gives them back through {@link #takeLentBuffers}'s action.
		 */
		synchronized void lendWriteBuffers() {
			if (this.writeBuffers.isEmpty()) {
				return;
			}
			List<RegisteredBuffer> lent = new ArrayList<>(this.writeBuffers);
			if (this.buffers != null) {
				this.buffers.removeAll(lent);
			}
			this.writeBuffers = List.of();
			java.util.concurrent.atomic.AtomicBoolean released = new java.util.concurrent.atomic.AtomicBoolean();
			this.lentRelease = () -> {
				if (released.compareAndSet(false, true)) {
					for (RegisteredBuffer buffer : lent) {
						buffer.release();
					}
				}
			};
		}

		/** @return what gives the lent Write chunk buffers back, once; {@code null} if none were lent */
		synchronized Runnable takeLentBuffers() {
			Runnable lent = this.lentRelease;
			this.lentRelease = null;
			return lent;
		}

	}

}

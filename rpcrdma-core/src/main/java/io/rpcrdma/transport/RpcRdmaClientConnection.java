package io.rpcrdma.transport;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.oncrpc.VersionRange;
import io.rpcrdma.protocol.ChunkedHeader;
import io.rpcrdma.protocol.ErrVers;
import io.rpcrdma.protocol.HeaderDecodeResult;
import io.rpcrdma.protocol.Rdma2ErrInvalOption;
import io.rpcrdma.protocol.Rdma2Msg;
import io.rpcrdma.protocol.Rdma2Optional;
import io.rpcrdma.protocol.RdmaDone;
import io.rpcrdma.protocol.RdmaErrorHeader;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.RdmaMsgp;
import io.rpcrdma.protocol.Rfc8797PrivateData;
import io.rpcrdma.protocol.RpcRdmaConstants;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.protocol.ccp.ConfigRdmaReply;
import io.rpcrdma.protocol.ccp.ConfigRdmaRequest;
import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * The requester end of one RPC-over-RDMA connection: holds calls by XID until their replies
 * arrive ({@link OutstandingCalls}), keeps the {@link CreditWindow}, and routes what arrives.
 * The jobs are split as Linux's xprtrdma splits them: {@link CallMarshaller} writes calls
 * (inline, Read chunks, Position Zero Read chunk for Long Calls, Write chunks, Reply chunk;
 * {@code rpc_rdma.c}), {@link ReplyUnmarshaller} reads replies, {@link VersionNegotiation}
 * picks the version (draft-cel-nfsv4-rpcrdma-version-two §5: try the preferred one, continue
 * within the responder's range after ERR_VERS, remember the answer for reconnects), and
 * {@link BackwardCallReceiver} serves the responder's backward-direction calls (RFC 8167,
 * {@code backchannel.c}).
 */
public final class RpcRdmaClientConnection extends RpcRdmaEndpoint implements RpcTransport {

	private final InetSocketAddress remote;

	/** Which version calls go in (draft-cel-nfsv4-rpcrdma-version-two §5). */
	private final VersionNegotiation versions;

	private final CreditWindow credits;

	/** Writes calls onto the wire: inline, chunks, Long Call (RFC 8166 §3.5). */
	private final CallMarshaller marshaller;

	/** Reads replies: inline, Write chunks, Reply chunk, RFC 5666 Read chunks. */
	private final ReplyUnmarshaller replies;

	/** Calls by XID, and finished ones kept for reuse. */
	private final OutstandingCalls pending;

	// A chunk-less reply taken by acceptChunkless, told by deliverChunkless on the same
	// completion thread right after the receive was reposted.
	private PendingCall inlineCall;

	private ByteBuffer inlineMessage;

	private int inlineVersion;

	private volatile boolean negotiatedInBand;

	/** Whether this connection is to be configured with CCP (RFC 5666 §6), set once connected. */
	private volatile boolean wantsInBand;

	/** Serves the calls the responder sends back on the connection (RFC 8167). */
	private final BackwardCallReceiver backward;

	/** Receives kept for backward-direction calls (RFC 8167 §4.3), beyond those for replies. */
	private final int backwardReceives;

	private RpcRdmaClientConnection(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress remote,
			TransportConfig config, PeerVersionCache versionCache, BackwardCallHandler backwardHandler,
			int backwardCredits) {
		super(provider, pool, BackwardDirection.requesterConfig(config, backwardHandler, backwardCredits),
				1 + BackwardDirection.requesterReceives(backwardHandler, backwardCredits) + 1);
		this.backwardReceives = BackwardDirection.requesterReceives(backwardHandler, backwardCredits);
		this.backward = new BackwardCallReceiver(this, remote, backwardHandler,
				(backwardHandler != null) ? backwardCredits : BackwardDirection.CREDITS_WITHOUT_HANDLER);
		this.remote = remote;
		this.versions = new VersionNegotiation(config.supportedVersions(), config.preferredVersion(), versionCache,
				remote);
		this.credits = new CreditWindow(config.creditsRequested());
		this.marshaller = new CallMarshaller(this, config);
		this.replies = new ReplyUnmarshaller(this, config);
		// A recycled call keeps a message copy up to the bigger inline threshold.
		this.pending = new OutstandingCalls(config.creditsRequested(), Math.max(
				config.inlineThreshold(RpcRdmaConstants.VERSION_1), config.inlineThreshold(RpcRdmaConstants.VERSION_2)));
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
		ConnectParameters parameters = new ConnectParameters(remote, client.inlineSizes().localPrivateData(),
				config.connectTimeout(), client::onConnectionEvent);
		return provider.connect(client.qp, parameters).handle((connection, error) -> {
			if (error != null) {
				client.fail(new TransportClosedException("Connecting to " + remote + " failed: " + error.getMessage()));
				throw new TransportClosedException("Connecting to " + remote + " failed: " + error.getMessage());
			}
			client.inlineSizes().acceptPeerPrivateData(connection.remotePrivateData());
			client.established(connection);
			if (!connection.isConnected()) {
				client.fail(new TransportClosedException("The connection to " + remote + " went down at once"));
			}
			return client;
		}).thenCompose((client1) -> {
			client1.wantsInBand = client1.needsInBandConfiguration(provider);
			return client1.wantsInBand ? client1.negotiateInBand() : CompletableFuture.completedFuture(client1);
		});
	}

	// ---- receives (RFC 8166 §3.3.1) ----------------------------------------------------------

	/**
	 * A reply's receive for every call the grant lets this side have in flight, one per
	 * backward-direction credit, and one spare: for a late reply to a call given up on, or the
	 * single backward call a connection without a handler answers (RFC 8167 §4.3). Replies to
	 * calls sent under a larger grant keep their receives until they arrive.
	 */
	@Override
	int receiveTarget() {
		return receivesFor(this.credits.limit());
	}

	private int receivesFor(int grant) {
		return Math.min(grant, this.config.creditsRequested()) + this.backwardReceives + 1;
	}

	/**
	 * Applies a reply's grant once the receives for the replies it allows are posted: a call
	 * it lets go may be sent at once, and its reply must find a receive.
	 */
	private void updateGrant(int granted) {
		int grant = (int) Math.max(1, Math.min(Integer.toUnsignedLong(granted), this.config.creditsRequested()));
		int kept = receivesKept();
		if (receivesFor(grant) > kept) {
			postReceivesFor(receivesFor(grant) - (kept - postedReceives()));
			// The pool's receive budget may be spent: use no more credits than receives.
			grant = Math.max(1, Math.min(grant, receivesKept() - this.backwardReceives - 1));
		}
		this.credits.updateGrant(grant);
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
		OutboundCall call = new OutboundCall(ConfigRdmaMessages.call(xid, request), List.of(), List.of(),
				ConfigRdmaMessages.MAX_REPLY_SIZE);
		return call(call).orTimeout(this.config.ccpTimeout().toNanos(), TimeUnit.NANOSECONDS)
			.handle((reply, error) -> {
				if (error != null) {
					// Not answered in time: give the credit back; a late reply finds no call.
					abandon(xid, error);
				}
				else {
					ConfigRdmaMessages.readReply(reply.message(), xid).ifPresent(this::applyInBandReply);
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
		inlineSizes().applyInBandSizes(this.config.receiveBufferSize(),
				ConfigRdmaMessages.size(reply.maxCallSendSize()));
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
		PendingCall pc = this.pending.remove(xid);
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
		PendingCall pc = this.pending.obtain(call, completion);
		int xid = pc.xid;
		// RFC 5666 §3.3: a credit taken now sends the call at once; only without one does the
		// call wait in the window's queue.
		boolean credited = this.credits.tryAcquire();
		pc.creditHeld = credited;
		pc.holds = 2;
		PendingCall existing = this.pending.putIfAbsent(pc);
		if (existing != null) {
			if (credited) {
				pc.creditHeld = false;
				this.credits.release();
			}
			pc.holds = 1;
			this.pending.release(pc);
			completion.failed(new IllegalArgumentException(
					"XID 0x" + Integer.toHexString(xid) + " is already outstanding on this connection"));
			return;
		}
		if (!isUsable()) {
			// fail() may have run between the check above and the insertion.
			if (this.pending.remove(pc)) {
				TransportException cause = failure();
				completeRemoved(pc, null, (cause != null) ? cause
						: new TransportClosedException("The connection failed while the call was being queued"));
			}
			this.pending.release(pc);
			return;
		}
		if (credited) {
			send(pc);
			this.pending.release(pc);
			return;
		}
		this.credits.acquire(this.config.creditWaitTimeout()).whenComplete((ignored, error) -> {
			try {
				if (error != null) {
					finish(pc, null, error);
					return;
				}
				if (this.pending.takeCredit(pc)) {
					send(pc);
				}
				else {
					this.credits.release();
				}
			}
			finally {
				this.pending.release(pc);
			}
		});
	}

	@Override
	public boolean isOpen() {
		return isUsable() && wasEstablished();
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
		return this.versions.version();
	}

	/** @return whether a reply has confirmed the version */
	public boolean isVersionConfirmed() {
		return this.versions.isConfirmed();
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
		return inlineSizes().sendThreshold(this.versions.version());
	}

	// ---- marshalling ---------------------------------------------------------------------

	private void send(PendingCall pc) {
		try {
			boolean confirmed = this.versions.isConfirmed();
			int vers = this.versions.sending();
			pc.version = vers;
			this.marshaller.marshalAndSend(pc, vers, confirmed);
		}
		catch (RuntimeException ex) {
			finish(pc, null, (ex instanceof TransportException te) ? te
					: new TransportException("Sending XID 0x" + Integer.toHexString(pc.xid) + " failed: " + ex, ex));
		}
		finally {
			if (pc.hasBuffers() && !this.pending.isPending(pc)) {
				// The connection failed while the call was being marshalled, and finish() ran
				// before the marshaller leased the rest of the call's chunk buffers (or its
				// post failed after that): they are released here, whichever way it ended.
				pc.releaseBuffers();
			}
		}
	}

	/** @return whether calls on this connection still offer their trace context to the responder */
	public boolean offersTraceContext() {
		return this.marshaller.offersTraceContext(this.versions.version());
	}

	// ---- receiving -------------------------------------------------------------------------

	@Override
	void onMessage(HeaderDecodeResult result, ByteBuffer message, int invalidatedStag) {
		if (!(result instanceof HeaderDecodeResult.Valid valid)) {
			// RFC 8166 §4.5.2: a requester does not answer what it cannot parse. If the XID of
			// an outstanding call can be read, fail that call rather than let it hang.
			int xid = (result instanceof HeaderDecodeResult.Malformed malformed) ? malformed.xid()
					: (result instanceof HeaderDecodeResult.UnsupportedVersion unsupported) ? unsupported.xid() : 0;
			PendingCall pc = this.pending.borrow(xid);
			if (pc != null) {
				if (pc.sent()) {
					finish(pc, null, new ChunkValidationException("The reply to XID 0x" + Integer.toHexString(xid)
							+ " has an invalid transport header: " + result));
				}
				this.pending.release(pc);
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
			this.backward.onCall((ChunkedHeader) header, message.slice(valid.payloadOffset(), valid.payloadLength()));
			return;
		}
		PendingCall pc = this.pending.borrow(header.xid());
		if (pc == null) {
			return;
		}
		try {
			if (pc.sent()) {
				onReply(pc, header, valid, message);
			}
		}
		finally {
			this.pending.release(pc);
		}
	}

	// ---- backward direction (RFC 8167) ------------------------------------------------------

	/** @return backward-direction calls received and not yet answered */
	public int backwardCallsOutstanding() {
		return this.backward.outstanding();
	}

	/** @return backward-direction calls received so far */
	public long backwardCallsReceived() {
		return this.backward.received();
	}

	/** @return the backward-direction credits this side grants (RFC 8167 §4.1) */
	public int backwardGrant() {
		return this.backward.grant();
	}


	/** A reply to a sent call, which the caller holds. */
	private void onReply(PendingCall pc, TransportHeader header, HeaderDecodeResult.Valid valid, ByteBuffer message) {
		if (header instanceof RdmaErrorHeader error) {
			this.counters.errorReceived(error);
			this.trace.errorReceived(error);
		}
		else {
			// draft-cel-nfsv4-rpcrdma-version-two §5: only a non-error message reports the
			// responder's actual credit limit; until then one message at a time.
			updateGrant(header.credits());
		}
		if (header instanceof ErrVers errVers) {
			onErrVers(pc, errVers);
			return;
		}
		if (header instanceof Rdma2ErrInvalOption && pc.traceContextOffered) {
			// draft §3.1: the responder does not know the trace-context option and did not
			// execute the call. Sent again as RDMA_MSG, keeping its credit, and the option is
			// not offered on this connection again.
			this.marshaller.refuseTraceContext();
			pc.traceContextOffered = false;
			pc.releaseBuffers();
			send(pc);
			return;
		}
		if (header instanceof RdmaErrorHeader error) {
			finish(pc, null, this.replies.refusal(pc, error));
			return;
		}
		this.versions.confirm(header.version());
		try {
			InboundReply reply = this.replies.unmarshal(pc, header, valid, message);
			if (reply != null) {
				finish(pc, reply, null);
			}
		}
		catch (TransportException ex) {
			finish(pc, null, ex);
		}
	}

	private void onErrVers(PendingCall pc, ErrVers errVers) {
		VersionRange theirs = errVers.supported();
		int chosen = this.versions.afterErrVers(theirs, pc.version);
		if (chosen == 0 || chosen == pc.version) {
			finish(pc, null, (chosen == 0) ? new VersionNegotiationException(this.config.supportedVersions(), theirs)
					: new RdmaErrorReceivedException(errVers));
			return;
		}
		// The call was not executed (RFC 5666 §4.2): send it again in the common version,
		// keeping its credit.
		pc.releaseBuffers();
		send(pc);
	}

	/** Finishes a call still in the table; the caller holds it. */
	void finish(PendingCall pc, InboundReply reply, Throwable error) {
		if (this.pending.remove(pc)) {
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
			this.pending.release(pc);
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
		PendingCall pc = this.pending.removeSent(xid);
		if (pc == null) {
			return true;
		}
		int version = received.getInt(4);
		// draft-cel-nfsv4-rpcrdma-version-two §5: a non-error reply reports the grant and
		// confirms the version.
		updateGrant(received.getInt(8));
		this.versions.confirm(version);
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
			this.pending.release(pc);
		}
	}

	@Override
	String role() {
		return "requester";
	}

	@Override
	void onFailure(TransportException cause) {
		this.versions.connectionLost();
		this.credits.close(cause);
		List<PendingCall> calls = new ArrayList<>();
		this.pending.clear(calls::add);
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
		return this.pending.size();
	}

	/** @return finished calls kept for reuse, at most the free list's bound */
	int freeCalls() {
		return this.pending.freeCount();
	}

}

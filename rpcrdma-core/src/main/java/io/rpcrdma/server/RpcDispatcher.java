package io.rpcrdma.server;

import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

import io.rpcrdma.oncrpc.AuthFlavor;
import io.rpcrdma.oncrpc.AuthStat;
import io.rpcrdma.oncrpc.OncRpcException;
import io.rpcrdma.oncrpc.ProgramNumberText;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.server.security.RpcSecGssServer;
import io.rpcrdma.server.security.SecurityPolicy;
import io.rpcrdma.xdr.OpaquePadding;
import io.rpcrdma.xdr.Xdr;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrException;
import io.rpcrdma.xdr.XdrOverflowException;

/**
 * Turns inbound encoded calls into replies: decodes the RPC header (RFC 5531 §9), finds the
 * procedure in a {@link ProgramRegistry}, runs its handler on a {@link ServerExecutor}, and
 * encodes the reply into a buffer from the connection's {@link ReplyBufferSupplier} for its
 * {@link ReplySink}.
 * <p>
 * Every call admitted ends in exactly one {@link DispatchOutcome}, and at most one reply: a
 * handler's exception becomes GARBAGE_ARGS or SYSTEM_ERR, a saturated executor SYSTEM_ERR
 * at once, a header the codec rejects with a prescribed answer (RPC_MISMATCH, AUTH_ERROR)
 * that answer. Non-idempotent procedures go through the optional
 * {@link DuplicateRequestCache}. An {@link InFlightTracker} counts running calls for
 * {@link #shutdown(Duration)}.
 * <p>
 * The NULL procedure and lookup failures are answered on the calling thread without a
 * hand-off: they do no work worth moving.
 */
public final class RpcDispatcher {

	private static final System.Logger logger = System.getLogger(RpcDispatcher.class.getName());

	private final ProgramRegistry registry;

	final ServerExecutor executor;

	final DuplicateRequestCache cache;

	final InFlightTracker inFlight;

	final SecurityPolicy security;

	/** Each connection's share of the executor, or {@code null} when a connection may take it all. */
	final ConnectionShares shares;

	private final RpcSecGssAdmission rpcsecGssAdmission = new RpcSecGssAdmission(this);

	final LongAdder authErrors = new LongAdder();

	final LongAdder systemErrors = new LongAdder();

	final LongAdder garbageArgs = new LongAdder();

	final LongAdder overloaded = new LongAdder();

	final LongAdder dropped = new LongAdder();

	/**
	 * A dispatcher without a duplicate request cache.
	 * @param registry the procedures served
	 * @param executor where handlers run
	 */
	public RpcDispatcher(ProgramRegistry registry, ServerExecutor executor) {
		this(registry, executor, null, new InFlightTracker());
	}

	/**
	 * @param registry the procedures served
	 * @param executor where handlers run
	 * @param cache the duplicate request cache for non-idempotent procedures, or {@code null}
	 * @param inFlight counts running calls
	 */
	public RpcDispatcher(ProgramRegistry registry, ServerExecutor executor, DuplicateRequestCache cache,
			InFlightTracker inFlight) {
		this(registry, executor, cache, inFlight, SecurityPolicy.permitAll());
	}

	/**
	 * @param registry the procedures served
	 * @param executor where handlers run
	 * @param cache the duplicate request cache for non-idempotent procedures, or {@code null}
	 * @param inFlight counts running calls
	 * @param security which flavors each procedure accepts; a refused call gets AUTH_ERROR
	 * and never reaches its handler
	 */
	public RpcDispatcher(ProgramRegistry registry, ServerExecutor executor, DuplicateRequestCache cache,
			InFlightTracker inFlight, SecurityPolicy security) {
		this(registry, executor, cache, inFlight, security, null);
	}

	/**
	 * A dispatcher whose executor is shared fairly among connections: one connection's calls
	 * hold at most {@code share.calls()} places in it, and its further calls wait on the
	 * connection (the one {@link ReplySink#connection()} names, or the client key for calls over
	 * none) until one of them ends ({@link ExecutorShare}).
	 * @param registry the procedures served
	 * @param executor where handlers run; not {@link ServerExecutor#direct()} with a share,
	 * which runs every call on the thread that delivers it
	 * @param cache the duplicate request cache for non-idempotent procedures, or {@code null}
	 * @param inFlight counts running calls
	 * @param security which flavors each procedure accepts
	 * @param share how much of the executor one connection may hold, or {@code null} for all of it
	 */
	public RpcDispatcher(ProgramRegistry registry, ServerExecutor executor, DuplicateRequestCache cache,
			InFlightTracker inFlight, SecurityPolicy security, ExecutorShare share) {
		this.registry = Objects.requireNonNull(registry, "registry");
		this.executor = Objects.requireNonNull(executor, "executor");
		this.cache = cache;
		this.inFlight = Objects.requireNonNull(inFlight, "inFlight");
		this.security = Objects.requireNonNull(security, "security");
		if (share != null && executor == ServerExecutor.direct()) {
			throw new IllegalArgumentException("A direct executor runs each call on the thread that delivers it;"
					+ " it has no places to share among connections");
		}
		this.shares = (share != null) ? new ConnectionShares(share, executor) : null;
	}

	/**
	 * Dispatches one inbound call.
	 * @param message the encoded RPC call from its position to its limit; read in place, so it
	 * must stay valid and unchanged until the returned stage completes
	 * @param clientKey who sent it: a {@link RequesterAddress} (the duplicate request cache
	 * recognises a retransmission by its host and gives each address with port its own share),
	 * or any other key, which then stands for both
	 * @param buffers where the reply is encoded
	 * @param sink where the reply is sent
	 * @return completes (never exceptionally) when the call is finished: replied, answered
	 * from the cache, or dropped
	 */
	public CompletableFuture<DispatchOutcome> dispatch(ByteBuffer message, Object clientKey,
			ReplyBufferSupplier buffers, ReplySink sink) {
		return dispatch(message, null, clientKey, ChunkOffer.NONE, buffers, sink);
	}

	/**
	 * Dispatches one inbound call whose requester offered chunks for the reply: handlers see
	 * the offer in their {@link ServerCall}, and the DDP-eligible items they mark go to
	 * {@link ReplySink#send(int, ByteBuffer, java.util.List)}.
	 * @param message the encoded RPC call from its position to its limit; read in place, so it
	 * must stay valid and unchanged until the returned stage completes
	 * @param clientKey who sent it, a {@link RequesterAddress} or any other key
	 * @param offer the Write and Reply chunks the requester offered, and the RPC-over-RDMA version
	 * @param buffers where the reply is encoded
	 * @param sink where the reply is sent
	 * @return completes (never exceptionally) when the call is finished
	 */
	public CompletableFuture<DispatchOutcome> dispatch(ByteBuffer message, Object clientKey, ChunkOffer offer,
			ReplyBufferSupplier buffers, ReplySink sink) {
		return dispatch(message, null, clientKey, offer, buffers, sink);
	}

	/**
	 * Dispatches a call whose opaques may carry RFC 5666 §3.9 RDMA_MSGP padding.
	 * @param message the encoded RPC call
	 * @param padding the padding to skip, or {@code null}
	 * @param clientKey who sent it
	 * @param buffers where the reply is encoded
	 * @param sink where the reply is sent
	 * @return completes when the call is finished
	 * @see #dispatch(ByteBuffer, Object, ReplyBufferSupplier, ReplySink)
	 */
	public CompletableFuture<DispatchOutcome> dispatch(ByteBuffer message, OpaquePadding padding, Object clientKey,
			ReplyBufferSupplier buffers, ReplySink sink) {
		return dispatch(message, padding, clientKey, ChunkOffer.NONE, buffers, sink);
	}

	/**
	 * Dispatches one inbound call: the general form of the other overloads.
	 * @param message the encoded RPC call from its position to its limit; read in place, so it
	 * must stay valid and unchanged until the returned stage completes
	 * @param padding RFC 5666 §3.9 RDMA_MSGP padding to skip before large opaques, or {@code null}
	 * @param clientKey who sent it, a {@link RequesterAddress} or any other key
	 * @param offer the Write and Reply chunks the requester offered, and the RPC-over-RDMA version
	 * @param buffers where the reply is encoded
	 * @param sink where the reply is sent
	 * @return completes (never exceptionally) when the call is finished
	 */
	public CompletableFuture<DispatchOutcome> dispatch(ByteBuffer message, OpaquePadding padding, Object clientKey,
			ChunkOffer offer, ReplyBufferSupplier buffers, ReplySink sink) {
		Objects.requireNonNull(offer, "offer");
		int start = message.position();
		XdrDecoder decoder = new XdrDecoder(message).withOpaquePadding(padding);
		RpcCall call;
		try {
			call = RpcMessageCodec.decodeCall(decoder);
		}
		catch (OncRpcException ex) {
			Optional<RpcReply> reply = ex.reply();
			if (reply.isPresent()) {
				logger.log(Level.DEBUG, () -> "Answering a bad call from " + clientKey + ": " + ex.getMessage());
				return CompletableFuture.completedFuture(sendHeader(reply.get(), buffers, sink, clientKey));
			}
			return drop(DispatchOutcome.DROPPED_MALFORMED, "Dropping a message from " + clientKey, ex);
		}
		catch (XdrException ex) {
			return drop(DispatchOutcome.DROPPED_MALFORMED, "Dropping a message from " + clientKey, ex);
		}
		// The exchange is the call's in-flight ticket too.
		DispatchExchange exchange = new DispatchExchange(this, new ServerCall(call, offer, clientKey), decoder, clientKey,
				buffers, sink);
		exchange.serverCall.origin(sink);
		if (!this.inFlight.enter(exchange)) {
			return drop(DispatchOutcome.DROPPED_SHUTTING_DOWN, "Dropping a call from " + clientKey, null);
		}
		// RFC 5531 §9: the credential is judged before the program is looked up, as Linux's
		// svc_process does, so a refused caller learns nothing about what is served.
		AuthStat admitted;
		RpcSecGssServer rpcsecGss = this.security.rpcsecGss();
		if (rpcsecGss != null && call.credential().flavor() == AuthFlavor.RPCSEC_GSS) {
			// RFC 2203 §5: RPCSEC_GSS answers some calls itself and admits the others.
			admitted = this.rpcsecGssAdmission.admit(rpcsecGss, call, message, start, decoder, exchange, buffers, sink,
					clientKey);
			if (admitted == null) {
				return exchange.outcome;
			}
		}
		else {
			admitted = this.security.admit(call.credential(), call.program(), call.version(), call.procedure());
		}
		if (admitted != AuthStat.AUTH_OK) {
			this.authErrors.increment();
			logger.log(Level.DEBUG, () -> "AUTH_ERROR " + admitted + " for a " + AuthFlavor.name(call.credential().flavor())
					+ " call to program " + ProgramNumberText.hex(call.program()) + " procedure "
					+ Integer.toUnsignedString(call.procedure()) + " from " + clientKey + "; the policy accepts "
					+ this.security.acceptedFlavors(call.program(), call.version(), call.procedure()));
			DispatchOutcome outcome = sendHeader(RpcReply.authError(call.xid(), admitted), buffers, sink, clientKey);
			exchange.exit();
			return CompletableFuture.completedFuture(outcome);
		}
		ProcedureLookup lookup = this.registry.resolve(call.program(), call.version(), call.procedure());
		if (lookup instanceof ProcedureLookup.Unavailable unavailable) {
			DispatchOutcome outcome = sendHeader(exchange.verified(unavailable.reply(call.xid())), buffers, sink,
					clientKey);
			exchange.exit();
			return CompletableFuture.completedFuture(outcome);
		}
		RegisteredProcedure procedure = (RegisteredProcedure) lookup;
		exchange.procedure = procedure;
		if (procedure.builtInNull()) {
			exchange.run();
			return exchange.outcome;
		}
		if (this.cache != null && !procedure.idempotent()) {
			DuplicateRequestCache.Admission admission = this.cache.admit(clientKey,
					identify(call, message, start, exchange.serverCall, exchange.arguments, clientKey),
					(reply) -> exchange.answerRetransmission(reply));
			switch (admission.verdict()) {
				case REPLAY:
					exchange.answerRetransmission(admission.cachedReply());
					return exchange.outcome;
				case WAIT:
					return exchange.outcome;
				case DROP:
					exchange.exit();
					return drop(DispatchOutcome.DROPPED_DUPLICATE,
							"Dropping " + procedure + " xid " + xid(call.xid()) + " from " + clientKey
									+ ": the same call, or another of its requester's with that xid, is still running",
							null);
				case EXECUTE:
					exchange.cacheEntry = admission.entry();
					break;
				default:
					break;
			}
		}
		if (this.shares != null) {
			ConnectionShare.Admission admission = this.shares.admit(exchange, sink, clientKey);
			if (admission == ConnectionShare.Admission.WAIT) {
				// Its connection holds its share: the call keeps its credit and waits its turn.
				return exchange.outcome;
			}
			if (admission == ConnectionShare.Admission.FULL) {
				return exchange.outcome;
			}
		}
		boolean accepted;
		try {
			accepted = this.executor.tryExecute(exchange);
		}
		catch (RuntimeException ex) {
			// An executor that throws instead of returning false is treated as saturated.
			logger.log(Level.WARNING, "Executor " + this.executor.description() + " threw instead of refusing", ex);
			accepted = false;
		}
		if (!accepted) {
			ConnectionShare share = exchange.share;
			exchange.share = null;
			exchange.rejectOverloaded();
			if (share != null) {
				this.shares.ended(share, false);
			}
		}
		return exchange.outcome;
	}

	/**
	 * Stops admitting calls (later ones are dropped with {@link DispatchOutcome#DROPPED_SHUTTING_DOWN})
	 * and waits up to {@code grace} for the running ones. Does not close the executor.
	 * @param grace how long running calls may take
	 * @return the report: quiescent, or the calls still running
	 */
	public CompletableFuture<InFlightTracker.ShutdownReport> shutdown(Duration grace) {
		return this.inFlight.shutdown(grace);
	}

	/**
	 * @return the tracker of running calls
	 */
	public InFlightTracker inFlight() {
		return this.inFlight;
	}

	/**
	 * @return the duplicate request cache's counters, empty when the dispatcher has none
	 */
	public Optional<DuplicateRequestCacheStats> duplicateRequestCacheStats() {
		return (this.cache != null) ? Optional.of(this.cache.stats()) : Optional.empty();
	}

	/**
	 * @return counters since creation
	 */
	public Stats stats() {
		return new Stats(this.systemErrors.sum(), this.garbageArgs.sum(), this.overloaded.sum(), this.dropped.sum(),
				this.authErrors.sum(), (this.shares != null) ? this.shares.deferred.sum() : 0);
	}

	/**
	 * Dispatcher counters.
	 *
	 * @param systemErrors SYSTEM_ERR replies for handler failures
	 * @param garbageArgs GARBAGE_ARGS replies
	 * @param overloaded calls refused because the executor was saturated, or their connection's
	 * {@link ExecutorShare} and its waiting room were full
	 * @param dropped messages dropped without a reply (malformed, duplicate, shutting down)
	 * @param authErrors calls refused with AUTH_ERROR, by the security policy or by their handler
	 * @param deferred calls that waited on their connection for a place in the executor, their
	 * connection holding its {@link ExecutorShare} (not refusals: each ran in its turn)
	 */
	public record Stats(long systemErrors, long garbageArgs, long overloaded, long dropped, long authErrors,
			long deferred) {
	}

	/**
	 * @return how much of the executor one connection may hold, empty when a connection may take
	 * all of it
	 */
	public Optional<ExecutorShare> executorShare() {
		return (this.shares != null) ? Optional.of(this.shares.limits()) : Optional.empty();
	}

	CompletableFuture<DispatchOutcome> drop(DispatchOutcome outcome, String what, Exception cause) {
		this.dropped.increment();
		logger.log(Level.DEBUG, () -> what + " (" + outcome + ")" + ((cause != null) ? ": " + cause.getMessage() : ""));
		return CompletableFuture.completedFuture(outcome);
	}

	/** Sends a reply that is only a header; returns REPLIED or FAILED. */
	static DispatchOutcome sendHeader(RpcReply reply, ReplyBufferSupplier buffers, ReplySink sink,
			Object clientKey) {
		return encodeAndSend(reply, null, buffers, sink, clientKey) ? DispatchOutcome.REPLIED : DispatchOutcome.FAILED;
	}

	/**
	 * Encodes a header (or copies {@code bytes}) into a fresh buffer and sends it; returns
	 * false after logging why nothing was sent.
	 */
	static boolean encodeAndSend(RpcReply reply, ByteBuffer bytes, ReplyBufferSupplier buffers,
			ReplySink sink, Object clientKey) {
		int xid = (reply != null) ? reply.xid() : bytes.getInt(bytes.position());
		ByteBuffer buffer;
		try {
			buffer = buffers.acquire(xid);
		}
		catch (RuntimeException ex) {
			logger.log(Level.WARNING, "No reply buffer for xid " + xid(xid) + " to " + clientKey + "; the reply is lost",
					ex);
			return false;
		}
		int start = buffer.position();
		try {
			if (reply != null) {
				RpcMessageCodec.encodeReply(reply, new XdrEncoder(buffer));
			}
			else {
				if (bytes.remaining() > buffer.remaining()) {
					throw new XdrOverflowException("cached reply", bytes.remaining(), buffer.remaining());
				}
				buffer.put(bytes.duplicate());
			}
		}
		catch (RuntimeException ex) {
			buffer.position(start);
			buffers.release(buffer);
			logger.log(Level.WARNING, "Reply to xid " + xid(xid) + " for " + clientKey + " does not fit its buffer", ex);
			return false;
		}
		buffer.limit(buffer.position()).position(start);
		try {
			sink.send(xid, buffer);
		}
		catch (RuntimeException ex) {
			logger.log(Level.WARNING, "Sending the reply to xid " + xid(xid) + " for " + clientKey + " failed", ex);
			return false;
		}
		return true;
	}

	/**
	 * What a retransmission of a call repeats, for the duplicate request cache: the requester's
	 * host (not its port: an RPC-over-RDMA requester retransmits on a new connection), the xid,
	 * program, version, procedure, and the length and checksum of the call after its xid.
	 * <p>
	 * Under RPCSEC_GSS a retransmission carries a new sequence number (RFC 2203 §5.3.3.1), so it
	 * is told by its procedure and plain arguments, and its reply is made again under its own
	 * verifier (answerRetransmission); the origin names the principal too, so another caller on
	 * the host never gets this one's reply.
	 */
	private static CallIdentity identify(RpcCall call, ByteBuffer message, int start, ServerCall serverCall,
			XdrDecoder arguments, Object clientKey) {
		Object host = RequesterAddress.hostOf(clientKey);
		if (serverCall.replyVerifier() != null) {
			ByteBuffer plain = arguments.buffer();
			return new CallIdentity(new GssCaller(host, serverCall.principal().getName()), call.xid(), call.program(),
					call.version(), call.procedure(), plain.remaining(), DuplicateRequestCache
						.checksumOfRequest(call.program(), call.version(), call.procedure(), plain));
		}
		ByteBuffer whole = message.duplicate();
		whole.position(start);
		return new CallIdentity(host, call.xid(), call.program(), call.version(), call.procedure(),
				whole.remaining() - Xdr.UNIT, DuplicateRequestCache.checksum(whole));
	}

	/**
	 * Who asks, for the duplicate request cache, under RPCSEC_GSS: the host and the principal.
	 * @param host the requester's host
	 * @param principal the context's principal
	 */
	private record GssCaller(Object host, String principal) {

		@Override
		public String toString() {
			return this.principal + " at " + this.host;
		}

	}

	static String xid(int xid) {
		return String.format("0x%08x", xid);
	}



}

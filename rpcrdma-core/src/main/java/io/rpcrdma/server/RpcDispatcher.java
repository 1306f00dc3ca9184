package io.rpcrdma.server;

import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.BiConsumer;
import java.util.concurrent.atomic.LongAdder;

import io.rpcrdma.oncrpc.AcceptedReply;
import io.rpcrdma.oncrpc.AuthFlavor;
import io.rpcrdma.oncrpc.AuthStat;
import io.rpcrdma.oncrpc.OncRpcException;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.oncrpc.ProgramNumberText;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.oncrpc.gss.GssProtectedBodyException;
import io.rpcrdma.server.security.GssBodyProtection;
import io.rpcrdma.server.security.RpcSecGssServer;
import io.rpcrdma.server.security.SecurityPolicy;
import io.rpcrdma.transport.DdpRange;
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

	private static final VarHandle FINISHED;

	static {
		try {
			FINISHED = MethodHandles.lookup().findVarHandle(Exchange.class, "finished", int.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final ProgramRegistry registry;

	private final ServerExecutor executor;

	private final DuplicateRequestCache cache;

	private final InFlightTracker inFlight;

	private final SecurityPolicy security;

	private final LongAdder authErrors = new LongAdder();

	private final LongAdder systemErrors = new LongAdder();

	private final LongAdder garbageArgs = new LongAdder();

	private final LongAdder overloaded = new LongAdder();

	private final LongAdder dropped = new LongAdder();

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
		this.registry = Objects.requireNonNull(registry, "registry");
		this.executor = Objects.requireNonNull(executor, "executor");
		this.cache = cache;
		this.inFlight = Objects.requireNonNull(inFlight, "inFlight");
		this.security = Objects.requireNonNull(security, "security");
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
		Exchange exchange = new Exchange(new ServerCall(call, offer, clientKey), decoder, clientKey, buffers, sink);
		exchange.serverCall.origin(sink);
		if (!this.inFlight.enter(exchange)) {
			return drop(DispatchOutcome.DROPPED_SHUTTING_DOWN, "Dropping a call from " + clientKey, null);
		}
		// RFC 5531 §9: the credential is judged before the program is looked up, as Linux's
		// svc_process does, so a refused caller learns nothing about what is served.
		AuthStat admitted;
		RpcSecGssServer rpcsecGss = this.security.rpcsecGss();
		if (rpcsecGss != null && call.credential().flavor() == AuthFlavor.RPCSEC_GSS) {
			RpcSecGssServer.Outcome verdict = rpcsecGss.admit(call, message, start, decoder,
					new RpcSecGssServer.Origin(clientKey, sink.connection(), sink.connectionClosed()));
			if (verdict instanceof RpcSecGssServer.ContextStep step) {
				return contextStep(step, exchange, buffers, sink, clientKey);
			}
			if (verdict instanceof RpcSecGssServer.Control control) {
				// RFC 2203 §5.2, §5.4: context creation and destruction are RPCSEC_GSS's to answer.
				boolean sent = encodeAndSend(null, control.reply(), buffers, sink, clientKey);
				exchange.exit();
				return CompletableFuture.completedFuture(sent ? DispatchOutcome.REPLIED : DispatchOutcome.FAILED);
			}
			if (verdict instanceof RpcSecGssServer.Discarded discarded) {
				// RFC 2203 §5.3.3.1: a replayed or stale sequence number gets no reply at all.
				exchange.exit();
				return drop(DispatchOutcome.DROPPED_DUPLICATE, "Discarding an RPCSEC_GSS call xid " + xid(call.xid())
						+ " from " + clientKey + ": " + discarded.reason(), null);
			}
			if (verdict instanceof RpcSecGssServer.Refused refused) {
				logger.log(Level.DEBUG, () -> "RPCSEC_GSS refused xid " + xid(call.xid()) + " from " + clientKey + ": "
						+ refused.reason());
				admitted = refused.status();
			}
			else {
				RpcSecGssServer.Admitted admission = (RpcSecGssServer.Admitted) verdict;
				exchange.serverCall.authenticated(admission.principal(), admission.replyVerifier());
				admitted = this.security.admit(admission.principal().flavor(), call.program(), call.version(),
						call.procedure());
				if (admitted == AuthStat.AUTH_OK && admission.protection() != null
						&& !exchange.unwrapArguments(admission.protection())) {
					this.garbageArgs.increment();
					DispatchOutcome outcome = sendHeader(exchange.verified(RpcReply.garbageArgs(call.xid())), buffers,
							sink, clientKey);
					exchange.exit();
					return CompletableFuture.completedFuture(outcome);
				}
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
		Resolution resolution = this.registry.resolve(call.program(), call.version(), call.procedure());
		if (resolution instanceof Resolution.Unavailable unavailable) {
			DispatchOutcome outcome = sendHeader(exchange.verified(unavailable.reply(call.xid())), buffers, sink,
					clientKey);
			exchange.exit();
			return CompletableFuture.completedFuture(outcome);
		}
		RegisteredProcedure procedure = (RegisteredProcedure) resolution;
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
			exchange.rejectOverloaded();
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
				this.authErrors.sum());
	}

	/**
	 * Dispatcher counters.
	 *
	 * @param systemErrors SYSTEM_ERR replies for handler failures
	 * @param garbageArgs GARBAGE_ARGS replies
	 * @param overloaded calls refused because the executor was saturated
	 * @param dropped messages dropped without a reply (malformed, duplicate, shutting down)
	 * @param authErrors calls refused with AUTH_ERROR, by the security policy or by their handler
	 */
	public record Stats(long systemErrors, long garbageArgs, long overloaded, long dropped, long authErrors) {
	}

	private CompletableFuture<DispatchOutcome> drop(DispatchOutcome outcome, String what, Exception cause) {
		this.dropped.increment();
		logger.log(Level.DEBUG, () -> what + " (" + outcome + ")" + ((cause != null) ? ": " + cause.getMessage() : ""));
		return CompletableFuture.completedFuture(outcome);
	}

	/**
	 * Takes an RPCSEC_GSS context-creation step on the executor, not on the thread that
	 * received the call (ARCHITECTURE.md, "Threading": accepting a Kerberos AP-REQ decrypts it
	 * and may write the JDK's replay cache), and answers it: the reply the step made, or
	 * AUTH_ERROR; SYSTEM_ERR when the executor is saturated.
	 */
	private CompletableFuture<DispatchOutcome> contextStep(RpcSecGssServer.ContextStep step, Exchange exchange,
			ReplyBufferSupplier buffers, ReplySink sink, Object clientKey) {
		int xid = exchange.call.xid();
		CompletableFuture<DispatchOutcome> outcome = new CompletableFuture<>();
		Runnable work = () -> {
			DispatchOutcome result;
			try {
				RpcSecGssServer.Outcome answer = step.step().get();
				if (answer instanceof RpcSecGssServer.Control control) {
					result = encodeAndSend(null, control.reply(), buffers, sink, clientKey) ? DispatchOutcome.REPLIED
							: DispatchOutcome.FAILED;
				}
				else {
					RpcSecGssServer.Refused refused = (RpcSecGssServer.Refused) answer;
					this.authErrors.increment();
					logger.log(Level.DEBUG, () -> "RPCSEC_GSS refused xid " + xid(xid) + " from " + clientKey + ": "
							+ refused.reason());
					result = sendHeader(RpcReply.authError(xid, refused.status()), buffers, sink, clientKey);
				}
			}
			catch (RuntimeException ex) {
				this.systemErrors.increment();
				logger.log(Level.WARNING, "RPCSEC_GSS context creation for xid " + xid(xid) + " from " + clientKey
						+ " failed; answering SYSTEM_ERR", ex);
				result = sendHeader(RpcReply.systemErr(xid), buffers, sink, clientKey);
			}
			outcome.complete(result);
			exchange.exit();
		};
		boolean accepted;
		try {
			accepted = this.executor.tryExecute(work);
		}
		catch (RuntimeException ex) {
			logger.log(Level.WARNING, "Executor " + this.executor.description() + " threw instead of refusing", ex);
			accepted = false;
		}
		if (!accepted) {
			// The context's slot, taken when the INIT came, is not held for a step never taken.
			step.abandon().run();
			this.overloaded.increment();
			DispatchOutcome sent = sendHeader(RpcReply.systemErr(xid), buffers, sink, clientKey);
			exchange.exit();
			return CompletableFuture.completedFuture(
					(sent == DispatchOutcome.REPLIED) ? DispatchOutcome.REJECTED_OVERLOADED : sent);
		}
		return outcome;
	}

	/** Sends a reply that is only a header; returns REPLIED or FAILED. */
	private static DispatchOutcome sendHeader(RpcReply reply, ReplyBufferSupplier buffers, ReplySink sink,
			Object clientKey) {
		return encodeAndSend(reply, null, buffers, sink, clientKey) ? DispatchOutcome.REPLIED : DispatchOutcome.FAILED;
	}

	/**
	 * Encodes a header (or copies {@code bytes}) into a fresh buffer and sends it; returns
	 * false after logging why nothing was sent.
	 */
	private static boolean encodeAndSend(RpcReply reply, ByteBuffer bytes, ReplyBufferSupplier buffers,
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

	/**
	 * One call from admission to its outcome; also what a handler's stage tells when it
	 * completes, so an asynchronous handler costs no lambda.
	 */
	private final class Exchange extends InFlightTracker.Ticket implements Runnable, BiConsumer<Object, Throwable> {

		final CompletableFuture<DispatchOutcome> outcome = new CompletableFuture<>();

		private final ServerCall serverCall;

		/** The call's arguments; for RPCSEC_GSS integrity or privacy, the unwrapped ones. */
		private XdrDecoder arguments;

		/** For RPCSEC_GSS integrity or privacy: what protects the results; else {@code null}. */
		private GssBodyProtection protection;

		/** Where the results start, after the reply header. */
		private int resultsStart;

		/** Set once resolved, before the exchange runs or meets the cache. */
		RegisteredProcedure procedure;

		private final ReplyBufferSupplier buffers;

		private final ReplySink sink;

		/** Set once the reply is settled: 0 or 1, through {@link #FINISHED}. */
		private volatile int finished;

		DuplicateRequestCache.Entry cacheEntry;

		private ByteBuffer buffer;

		private XdrEncoder results;

		private int start;

		private int limit;

		/** The call header and the client key are the ticket's ({@code call}, {@code clientKey}). */
		Exchange(ServerCall call, XdrDecoder arguments, Object clientKey, ReplyBufferSupplier buffers, ReplySink sink) {
			super(RpcDispatcher.this.inFlight, clientKey, call.header());
			this.serverCall = call;
			this.arguments = arguments;
			this.buffers = buffers;
			this.sink = sink;
		}

		@Override
		public void run() {
			try {
				this.buffer = this.buffers.acquire(this.call.xid());
			}
			catch (Throwable ex) {
				this.finished = 1;
				logger.log(Level.WARNING, "No reply buffer for " + describe() + "; the call is dropped unexecuted", ex);
				end(DispatchOutcome.FAILED, null);
				return;
			}
			this.start = this.buffer.position();
			this.limit = this.buffer.limit();
			this.serverCall.replyStartsAt(this.start);
			// Bulk results may stay where the handler has them only when the reply's bytes
			// are not needed whole: for RPCSEC_GSS protection or for the duplicate request cache.
			this.serverCall.allowDdpByReference(this.protection == null && this.cacheEntry == null
					&& this.sink.conveysChunks());
			this.results = new XdrEncoder(this.buffer);
			CompletionStage<Void> stage;
			try {
				OpaqueAuth replyVerifier = this.serverCall.replyVerifier();
				if (replyVerifier == null) {
					RpcMessageCodec.encodeSuccessHeader(this.call.xid(), this.results);
				}
				else {
					RpcMessageCodec.encodeReply(RpcReply.success(this.call.xid(), replyVerifier), this.results);
				}
				this.resultsStart = this.buffer.position();
				stage = this.procedure.handler().handle(this.serverCall, this.arguments, this.results);
			}
			catch (Throwable ex) {
				finish(ex);
				return;
			}
			if (stage == null || stage == ProcedureHandler.DONE) {
				finish(null);
			}
			else {
				stage.whenComplete(this);
			}
		}

		/** The handler's stage completed. */
		@Override
		public void accept(Object ignored, Throwable failure) {
			finish(failure);
		}

		/**
		 * RFC 2203 §5.3.2.2, §5.3.2.3: checks and takes out the arguments of a call under
		 * integrity or privacy; false if they cannot be trusted (the call gets GARBAGE_ARGS).
		 */
		boolean unwrapArguments(GssBodyProtection bodyProtection) {
			try {
				this.arguments = new XdrDecoder(bodyProtection.unwrapArguments(this.arguments));
			}
			catch (GssProtectedBodyException ex) {
				logger.log(Level.DEBUG, () -> "GARBAGE_ARGS for xid " + xid(this.call.xid()) + " from " + this.clientKey
						+ ": " + ex.getMessage());
				return false;
			}
			this.protection = bodyProtection;
			return true;
		}

		/**
		 * Puts the results written after the header in their call's protection; RFC 5666 §11:
		 * the protected body travels whole, so nothing of it stays marked for direct placement.
		 */
		private void protectResults() {
			ByteBuffer plain = this.buffer.duplicate();
			plain.limit(this.buffer.position()).position(this.resultsStart);
			byte[] body = this.protection.protectResults(plain);
			this.serverCall.discardMarks();
			if (body.length > this.limit - this.resultsStart) {
				throw new XdrOverflowException("RPCSEC_GSS protected results", body.length, this.limit - this.resultsStart);
			}
			this.buffer.limit(this.limit).position(this.resultsStart);
			this.buffer.put(body);
		}

		/** Encodes the reply (results or an error header), caches it, sends it: once. */
		private void finish(Throwable failure) {
			if (!FINISHED.compareAndSet(this, 0, 1)) {
				return;
			}
			ByteBuffer plain = null;
			if (failure == null && this.protection != null) {
				try {
					if (this.cacheEntry != null) {
						// Cached plain: a retransmission's reply is protected under its own
						// sequence number (answerRetransmission).
						plain = copyOfReply();
					}
					protectResults();
				}
				catch (RuntimeException ex) {
					failure = ex;
				}
			}
			ByteBuffer sent = null;
			if (failure != null && unwrap(failure) instanceof XdrOverflowException
					&& this.sink.replyTooLarge(this.call.xid(), this.limit - this.start)) {
				this.buffers.release(this.buffer);
				logger.log(Level.DEBUG, () -> "The reply to " + describe() + " outgrew its " + (this.limit - this.start)
						+ "-byte buffer; the transport refused it");
				end(DispatchOutcome.FAILED, null);
				return;
			}
			try {
				if (failure != null) {
					this.serverCall.discardMarks();
					RpcReply error = errorReply(unwrap(failure));
					this.buffer.limit(this.limit).position(this.start);
					RpcMessageCodec.encodeReply(error, this.results.reset(this.buffer));
				}
				this.buffer.limit(this.buffer.position()).position(this.start);
				if (this.cacheEntry != null) {
					RpcDispatcher.this.cache.complete(this.cacheEntry, (plain != null && failure == null) ? plain : this.buffer);
					this.cacheEntry = null;
				}
				sent = this.buffer;
				List<DdpRange> items = this.serverCall.ddpItems();
				if (items.isEmpty()) {
					this.sink.send(this.call.xid(), this.buffer);
				}
				else {
					this.sink.send(this.call.xid(), this.buffer, items);
				}
				end(DispatchOutcome.REPLIED, null);
			}
			catch (Throwable ex) {
				if (sent == null) {
					this.buffers.release(this.buffer);
				}
				logger.log(Level.WARNING, "The reply to " + describe() + " could not be sent", ex);
				end(DispatchOutcome.FAILED, null);
			}
		}

		/** The executor refused the call: answer SYSTEM_ERR without running it. */
		void rejectOverloaded() {
			this.finished = 1;
			RpcDispatcher.this.overloaded.increment();
			logger.log(Level.DEBUG, () -> "Executor saturated (" + RpcDispatcher.this.executor.description()
					+ "); answering SYSTEM_ERR to " + describe());
			RpcReply reply = verified(RpcReply.systemErr(this.call.xid()));
			ByteBuffer forWaiters = null;
			if (this.cacheEntry != null) {
				// Retransmissions waiting on this call get the same answer; encoded apart, because
				// the sent buffer belongs to the transport once sent.
				forWaiters = ByteBuffer.allocate(RpcMessageCodec.encodedSize(reply));
				RpcMessageCodec.encodeReply(reply, new XdrEncoder(forWaiters));
				forWaiters.flip();
			}
			encodeAndSend(reply, null, this.buffers, this.sink, this.clientKey);
			end(DispatchOutcome.REJECTED_OVERLOADED, forWaiters);
		}

		/** The reply written so far, header and plain results, in a buffer of its own. */
		private ByteBuffer copyOfReply() {
			ByteBuffer written = this.buffer.duplicate();
			written.limit(this.buffer.position()).position(this.start);
			ByteBuffer copy = ByteBuffer.allocate(written.remaining());
			return copy.put(written).flip();
		}

		/** Sends the reply cached for the original call to this retransmission, or drops it. */
		void answerRetransmission(ByteBuffer cached) {
			if (cached == null) {
				RpcDispatcher.this.dropped.increment();
				this.outcome.complete(DispatchOutcome.DROPPED_DUPLICATE);
				exit();
				return;
			}
			ByteBuffer reply = cached;
			if (this.serverCall.replyVerifier() != null) {
				try {
					reply = underThisTransmission(cached);
				}
				catch (RuntimeException ex) {
					logger.log(Level.WARNING, "The cached reply to " + describe() + " could not be protected again;"
							+ " the retransmission is dropped", ex);
					RpcDispatcher.this.dropped.increment();
					this.outcome.complete(DispatchOutcome.DROPPED_DUPLICATE);
					exit();
					return;
				}
			}
			boolean sent = encodeAndSend(null, reply, this.buffers, this.sink, this.clientKey);
			this.outcome.complete(sent ? DispatchOutcome.REPLIED_FROM_CACHE : DispatchOutcome.FAILED);
			exit();
		}

		/**
		 * RFC 2203 §5.3.3.2: a reply's verifier is the MIC over the sequence number of the
		 * transmission it answers, and under integrity or privacy its results carry that
		 * number too. The cached reply (kept with plain results) is made again for this
		 * retransmission: its status and results, under this transmission's verifier and
		 * protection.
		 */
		private ByteBuffer underThisTransmission(ByteBuffer cached) {
			XdrDecoder decoder = new XdrDecoder(cached.duplicate());
			RpcReply original = RpcMessageCodec.decodeReply(decoder);
			if (!(original.body() instanceof AcceptedReply accepted)) {
				return cached;
			}
			RpcReply header = new RpcReply(this.call.xid(), new AcceptedReply(this.serverCall.replyVerifier(),
					accepted.status()));
			ByteBuffer results = decoder.buffer().slice();
			byte[] body;
			if (this.protection != null && original.isSuccess()) {
				body = this.protection.protectResults(results);
			}
			else {
				body = new byte[results.remaining()];
				results.get(body);
			}
			ByteBuffer reply = ByteBuffer.allocate(RpcMessageCodec.encodedSize(header) + body.length);
			RpcMessageCodec.encodeReply(header, new XdrEncoder(reply));
			return reply.put(body).flip();
		}

		/**
		 * Releases the cache entry (if the call did not produce a cached reply), reports the
		 * outcome, and only then leaves the in-flight count, so that a shutdown that finds
		 * the server quiescent finds every outcome reported.
		 */
		private void end(DispatchOutcome result, ByteBuffer replyForWaiters) {
			if (this.cacheEntry != null) {
				RpcDispatcher.this.cache.abandon(this.cacheEntry, replyForWaiters);
				this.cacheEntry = null;
			}
			this.outcome.complete(result);
			exit();
		}

		/**
		 * The reply with the verifier RPCSEC_GSS asks of every accepted reply (RFC 2203
		 * §5.3.3.2); AUTH_ERROR replies carry none.
		 */
		RpcReply verified(RpcReply reply) {
			OpaqueAuth verifier = this.serverCall.replyVerifier();
			if (verifier == null || !(reply.body() instanceof AcceptedReply accepted)) {
				return reply;
			}
			return new RpcReply(reply.xid(), new AcceptedReply(verifier, accepted.status()));
		}

		private RpcReply errorReply(Throwable failure) {
			if (failure instanceof CallRejectedException rejected) {
				RpcDispatcher.this.authErrors.increment();
				logger.log(Level.DEBUG, () -> "AUTH_ERROR " + rejected.status() + " for " + describe() + ": "
						+ rejected.getMessage());
				return RpcReply.authError(this.call.xid(), rejected.status());
			}
			if (failure instanceof GarbageArgumentsException
					|| (failure instanceof XdrException && !(failure instanceof XdrOverflowException))) {
				RpcDispatcher.this.garbageArgs.increment();
				logger.log(Level.DEBUG, () -> "GARBAGE_ARGS for " + describe() + ": " + failure.getMessage());
				return verified(RpcReply.garbageArgs(this.call.xid()));
			}
			RpcDispatcher.this.systemErrors.increment();
			logger.log(Level.WARNING, "Handler of " + describe() + " failed; answering SYSTEM_ERR", failure);
			return verified(RpcReply.systemErr(this.call.xid()));
		}

		private String describe() {
			return this.procedure + " xid " + xid(this.call.xid()) + " from " + this.clientKey;
		}

	}

	private static Throwable unwrap(Throwable failure) {
		Throwable current = failure;
		while ((current instanceof CompletionException || current instanceof ExecutionException)
				&& current.getCause() != null) {
			current = current.getCause();
		}
		return current;
	}

}

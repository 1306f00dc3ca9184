package io.rpcrdma.server;

import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.BiConsumer;

import io.rpcrdma.oncrpc.AcceptedReply;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.oncrpc.gss.GssProtectedBodyException;
import io.rpcrdma.server.security.GssBodyProtection;
import io.rpcrdma.transport.DdpRange;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrException;
import io.rpcrdma.xdr.XdrOverflowException;

/**
 * One call from admission to its outcome; also what a handler's stage tells when it
 * completes, so an asynchronous handler costs no lambda.
 */
final class DispatchExchange extends InFlightTracker.Ticket implements Runnable, BiConsumer<Object, Throwable> {

	private static final System.Logger logger = System.getLogger(RpcDispatcher.class.getName());

	private static final VarHandle FINISHED;

	static {
		try {
			FINISHED = MethodHandles.lookup().findVarHandle(DispatchExchange.class, "finished", int.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	final CompletableFuture<DispatchOutcome> outcome = new CompletableFuture<>();

	private final RpcDispatcher dispatcher;

	final ServerCall serverCall;

	/** The call's arguments; for RPCSEC_GSS integrity or privacy, the unwrapped ones. */
	XdrDecoder arguments;

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

	/** The connection's share of the executor this call holds a place in, or {@code null}. */
	ConnectionShare share;

	private ByteBuffer buffer;

	private XdrEncoder results;

	private int start;

	private int limit;

	/** The call header and the client key are the ticket's ({@code call}, {@code clientKey}). */
	DispatchExchange(RpcDispatcher dispatcher, ServerCall call, XdrDecoder arguments, Object clientKey,
		ReplyBufferSupplier buffers, ReplySink sink) {
		super(dispatcher.inFlight, clientKey, call.header());
		this.dispatcher = dispatcher;
		this.serverCall = call;
		this.arguments = arguments;
		this.buffers = buffers;
		this.sink = sink;
	}

	@Override
	public void run() {
		ConnectionShare held = this.share;
		try {
			execute();
		}
		finally {
			if (held != null) {
				// The handler returned (or its stage will answer): the place goes to the next.
				this.dispatcher.shares.ended(held, true);
			}
		}
	}

	private void execute() {
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
			logger.log(Level.DEBUG, () -> "GARBAGE_ARGS for xid " + RpcDispatcher.xid(this.call.xid()) + " from "
					+ this.clientKey + ": " + ex.getMessage());
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
				this.dispatcher.cache.complete(this.cacheEntry, (plain != null && failure == null) ? plain : this.buffer);
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
		rejectOverloaded(null);
	}

	/**
	 * The executor, or the connection's share of it, refused the call: answer SYSTEM_ERR
	 * without running it.
	 * @param share the connection's share that was full (calls in the executor and waiting), or
	 * {@code null} when the executor itself refused
	 */
	void rejectOverloaded(ConnectionShare share) {
		this.finished = 1;
		this.dispatcher.overloaded.increment();
		logger.log(Level.DEBUG, () -> ((share != null) ? "Connection's share of the executor full (" + share + ")"
				: "Executor saturated (" + this.dispatcher.executor.description() + ")")
				+ "; answering SYSTEM_ERR to " + describe());
		RpcReply reply = verified(RpcReply.systemErr(this.call.xid()));
		ByteBuffer forWaiters = null;
		if (this.cacheEntry != null) {
			// Retransmissions waiting on this call get the same answer; encoded apart, because
			// the sent buffer belongs to the transport once sent.
			forWaiters = ByteBuffer.allocate(RpcMessageCodec.encodedSize(reply));
			RpcMessageCodec.encodeReply(reply, new XdrEncoder(forWaiters));
			forWaiters.flip();
		}
		RpcDispatcher.encodeAndSend(reply, null, this.buffers, this.sink, this.clientKey);
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
			this.dispatcher.dropped.increment();
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
				this.dispatcher.dropped.increment();
				this.outcome.complete(DispatchOutcome.DROPPED_DUPLICATE);
				exit();
				return;
			}
		}
		boolean sent = RpcDispatcher.encodeAndSend(null, reply, this.buffers, this.sink, this.clientKey);
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
			this.dispatcher.cache.abandon(this.cacheEntry, replyForWaiters);
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
			this.dispatcher.authErrors.increment();
			logger.log(Level.DEBUG, () -> "AUTH_ERROR " + rejected.status() + " for " + describe() + ": "
					+ rejected.getMessage());
			return RpcReply.authError(this.call.xid(), rejected.status());
		}
		if (failure instanceof GarbageArgumentsException
				|| (failure instanceof XdrException && !(failure instanceof XdrOverflowException))) {
			this.dispatcher.garbageArgs.increment();
			logger.log(Level.DEBUG, () -> "GARBAGE_ARGS for " + describe() + ": " + failure.getMessage());
			return verified(RpcReply.garbageArgs(this.call.xid()));
		}
		this.dispatcher.systemErrors.increment();
		logger.log(Level.WARNING, "Handler of " + describe() + " failed; answering SYSTEM_ERR", failure);
		return verified(RpcReply.systemErr(this.call.xid()));
	}

	private String describe() {
		return this.procedure + " xid " + RpcDispatcher.xid(this.call.xid()) + " from " + this.clientKey;
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

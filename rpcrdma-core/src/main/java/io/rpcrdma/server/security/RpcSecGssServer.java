package io.rpcrdma.server.security;

import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.rpcrdma.log.Durations;
import io.rpcrdma.oncrpc.AuthFlavor;
import io.rpcrdma.oncrpc.AuthStat;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.oncrpc.RawAuth;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.oncrpc.gss.GssCredential;
import io.rpcrdma.oncrpc.gss.GssCredentialException;
import io.rpcrdma.oncrpc.gss.GssFailureException;
import io.rpcrdma.oncrpc.gss.GssProcedure;
import io.rpcrdma.oncrpc.gss.GssService;
import io.rpcrdma.oncrpc.gss.GssSession;
import io.rpcrdma.oncrpc.gss.KerberosCredentials;
import io.rpcrdma.oncrpc.gss.SequenceWindow;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrException;

/**
 * The server's half of RPCSEC_GSS version 1 (RFC 2203) with Kerberos V5: creates contexts
 * through the NULL procedure (INIT, CONTINUE_INIT), checks each DATA call's verifier (a MIC
 * over its header) and sequence number, and destroys contexts (DESTROY). A context belongs to
 * the connection it was created on: a handle presented on any other connection, even one
 * from the same host, is refused with RPCSEC_GSS_CREDPROBLEM, and the context is forgotten
 * when its connection closes (a client makes a context per connection; RFC 2203 leaves the
 * scope of a handle to the server). Calls that come over no connection bind their contexts
 * to the client key instead.
 * <p>
 * Contexts are bounded per connection, per principal and in all ({@link GssContextLimits}, kept
 * by {@code GssContextTable}): a slot is taken when the INIT arrives, before its Kerberos step,
 * and a context whose creation does not complete within the creation timeout is forgotten.
 * When the table is full, the holder of the most contexts gives way first, so a peer piling up
 * contexts cannot push out a client's one. A context refused for want of room is answered
 * SYSTEM_ERR (RFC 5531 §9, "errors like memory allocation failure") with a NULL verifier,
 * not an AUTH_ERROR: every auth_stat says the client's credentials are at fault, and Linux's
 * RPC client answers AUTH_REJECTEDCRED and RPCSEC_GSS_CREDPROBLEM by invalidating its
 * credential and asking again (rpc_decode_header), which a full table would only refuse again.
 * Linux's svcauth_gss treats a context it cannot store as the server's failure too
 * (svcauth_gss_proxy_init returns SVC_CLOSE when gss_proxy_save_rsc fails: the call is
 * dropped and a TCP connection closed); answering instead lets the client say what happened
 * ({@code GssContextUnavailableException}).
 * <p>
 * Services: {@code rpc_gss_svc_none} (krb5), {@code rpc_gss_svc_integrity} (krb5i) and
 * {@code rpc_gss_svc_privacy} (krb5p), whose bodies the dispatcher checks and protects through
 * the {@link GssBodyProtection} an admitted call carries.
 */
public final class RpcSecGssServer {

	private static final System.Logger logger = System.getLogger(RpcSecGssServer.class.getName());

	/** RFC 2203 §5.2.3.1: the window announced; Linux's svcauth_gss uses 128 too. */
	public static final int DEFAULT_WINDOW = 128;

	/** The most contexts held at once, by default ({@link GssContextLimits#DEFAULTS}). */
	public static final int DEFAULT_MAX_CONTEXTS = 1024;

	/** The longest token accepted in a context-creation call; Kerberos AP-REQs are a few KB. */
	static final int MAX_INIT_TOKEN = 64 * 1024;

	/** GSS_S_COMPLETE, GSS_S_CONTINUE_NEEDED, GSS_S_FAILURE (RFC 2744 §3.9.1). */
	static final int GSS_S_COMPLETE = 0;

	static final int GSS_S_CONTINUE_NEEDED = 1;

	static final int GSS_S_FAILURE = GssFailureException.FAILURE;

	private static final int HANDLE_LENGTH = 16;

	private final KerberosCredentials acceptor;

	private final int window;

	/** Random per server, the first half of every handle, so handles of another server never match. */
	private final long instance = new SecureRandom().nextLong();

	private final GssContextTable<Context> contexts;

	private final LongAdder refused = new LongAdder();

	/**
	 * @param acceptor the service's Kerberos credentials (from its keytab)
	 */
	public RpcSecGssServer(KerberosCredentials acceptor) {
		this(acceptor, DEFAULT_WINDOW, GssContextLimits.DEFAULTS);
	}

	/**
	 * The default limits but two.
	 * @param acceptor the service's Kerberos credentials
	 * @param window the sequence window announced to clients, 1 to 65536
	 * @param maxContexts the most contexts held at once
	 * @param idleLimit how long an unused context may be kept when room is needed
	 */
	public RpcSecGssServer(KerberosCredentials acceptor, int window, int maxContexts, Duration idleLimit) {
		this(acceptor, window, GssContextLimits.DEFAULTS.withMaxContexts(maxContexts).withIdleLimit(idleLimit));
	}

	/**
	 * @param acceptor the service's Kerberos credentials
	 * @param window the sequence window announced to clients, 1 to 65536
	 * @param limits how many contexts, per connection, per principal and in all, and how long
	 */
	public RpcSecGssServer(KerberosCredentials acceptor, int window, GssContextLimits limits) {
		this(acceptor, window, limits, System::nanoTime);
	}

	/**
	 * @param acceptor the service's Kerberos credentials
	 * @param window the sequence window announced to clients, 1 to 65536
	 * @param limits how many contexts, per connection, per principal and in all, and how long
	 * @param nanoClock the time source for the limits' timeouts, {@link System#nanoTime()} but in tests
	 */
	public RpcSecGssServer(KerberosCredentials acceptor, int window, GssContextLimits limits, LongSupplier nanoClock) {
		this.acceptor = Objects.requireNonNull(acceptor, "acceptor");
		if (!acceptor.acceptor()) {
			throw new IllegalArgumentException(acceptor + " initiates contexts; a server needs acceptor credentials"
					+ " (KerberosCredentials.acceptorFromKeytab)");
		}
		new SequenceWindow(window);
		this.window = window;
		this.contexts = new GssContextTable<>(limits, nanoClock, (context) -> context.session.close());
	}

	/** @return how many contexts this server holds, per connection, per principal and in all, and how long */
	public GssContextLimits limits() {
		return this.contexts.limits();
	}

	/** @return the contexts held, in creation or established (those past their creation timeout are forgotten first) */
	public int contexts() {
		return this.contexts.size();
	}

	/** @return the contexts refused for want of room (answered SYSTEM_ERR) since the server started */
	public long refusedContexts() {
		return this.refused.sum();
	}

	/**
	 * Where an RPCSEC_GSS call came from.
	 * @param client the dispatcher's client key (the requester's address and port), for the log
	 * and for calls over no connection
	 * @param connection the connection it came on, what contexts are bound to; {@code null}
	 * when it came over none
	 * @param connectionClosed completes when that connection closes, forgetting its contexts;
	 * {@code null} with it
	 */
	public record Origin(Object client, Object connection, CompletableFuture<Void> connectionClosed) {

		/** @return what a context created by this origin is bound to */
		Object binding() {
			return (this.connection != null) ? this.connection : this.client;
		}

	}

	/** What to do with an RPCSEC_GSS call. */
	public sealed interface Outcome permits Control, ContextStep, Admitted, Refused, Discarded {
	}

	/**
	 * A context-creation call whose GSS step is still to be taken: accepting a Kerberos AP-REQ
	 * decrypts it and may write the JDK's replay cache, so the dispatcher takes it off the
	 * thread that received the call. Everything it needs from the call is copied already, and
	 * an INIT's context has its slot in the table.
	 * @param step takes the step, answering {@link Control} or {@link Refused}
	 * @param abandon gives the slot back when the step will not be taken (the executor refused it)
	 */
	public record ContextStep(Supplier<Outcome> step, Runnable abandon) implements Outcome {
	}

	/**
	 * A context-creation or destruction call, answered here.
	 * @param reply the whole encoded reply
	 */
	public record Control(ByteBuffer reply) implements Outcome {
	}

	/**
	 * A DATA call that may run.
	 * @param principal who sent it, with the flavor its service makes (krb5, krb5i, krb5p)
	 * @param replyVerifier the verifier its reply carries: a MIC over the sequence number
	 * @param protection what checks its arguments and protects its results; {@code null} for
	 * krb5, whose bodies travel as they are
	 */
	public record Admitted(GssPrincipal principal, OpaqueAuth replyVerifier, GssBodyProtection protection)
			implements Outcome {
	}

	/**
	 * A call refused with AUTH_ERROR.
	 * @param status why
	 * @param reason for the log
	 */
	public record Refused(AuthStat status, String reason) implements Outcome {
	}

	/**
	 * A call dropped without a reply (RFC 2203 §5.3.3.1: a replayed or too old sequence number).
	 * @param reason for the log
	 */
	public record Discarded(String reason) implements Outcome {
	}

	/**
	 * Judges one call whose credential is of flavor RPCSEC_GSS.
	 * @param call the decoded header
	 * @param message the whole call, from {@code start}
	 * @param start where the call's xid is
	 * @param arguments positioned at the procedure's arguments
	 * @param client who sent it, and on which connection
	 * @return the outcome
	 */
	public Outcome admit(RpcCall call, ByteBuffer message, int start, XdrDecoder arguments, Origin client) {
		GssCredential credential;
		try {
			credential = GssCredential.of((RawAuth) call.credential());
		}
		catch (GssCredentialException ex) {
			return new Refused(AuthStat.AUTH_BADCRED, ex.getMessage());
		}
		return switch (credential.procedure()) {
			case INIT, CONTINUE_INIT -> create(call, credential, arguments, client);
			case DATA, DESTROY -> data(call, credential, message, start, client);
		};
	}

	/** RFC 2203 §5.2.2-5.2.3: one step of context creation, on the NULL procedure. */
	private Outcome create(RpcCall call, GssCredential credential, XdrDecoder arguments, Origin client) {
		int xid = call.xid();
		if (call.procedure() != 0) {
			return new Refused(AuthStat.AUTH_BADCRED, credential.procedure() + " on procedure "
					+ Integer.toUnsignedString(call.procedure()) + " rather than NULL (RFC 2203 §5.2.2)");
		}
		byte[] token;
		try {
			token = arguments.readOpaqueBytes(MAX_INIT_TOKEN);
		}
		catch (XdrException ex) {
			return new Refused(AuthStat.AUTH_BADCRED, "context-creation token cut short or over "
					+ MAX_INIT_TOKEN + " bytes: " + ex.getMessage());
		}
		if (credential.procedure() == GssProcedure.CONTINUE_INIT) {
			return new ContextStep(() -> continueInit(xid, credential, token, client), () -> {
			});
		}
		// The slot is taken here, on the receiving thread and before the Kerberos step: a peer
		// over its share is refused without costing a decryption or a place in the executor's
		// queue, and an INIT waiting for the executor counts as a context in creation.
		GssContextTable.Entry<Context> reserved;
		try {
			reserved = this.contexts.reserve(client.binding(), client.connectionClosed());
		}
		catch (GssContextRefusedException ex) {
			return unavailable(xid, client, ex.getMessage(), ex.first());
		}
		return new ContextStep(() -> init(xid, reserved, token, client), () -> this.contexts.remove(reserved));
	}

	/** RPCSEC_GSS_INIT, on the executor: the context's first GSS step. */
	private Outcome init(int xid, GssContextTable.Entry<Context> reserved, byte[] token, Origin client) {
		try {
			if (reserved.removed()) {
				return unavailable(xid, client, "its context in creation was forgotten before the server's executor"
						+ " took its step (creation timeout " + Durations.written(this.contexts.limits().creationTimeout())
						+ " passed, the connection closed, or it gave way to a new context)", false);
			}
			Context context = new Context(GssSession.accept(this.acceptor), new SequenceWindow(this.window));
			if (!this.contexts.attach(reserved, context)) {
				context.session.close();
				return unavailable(xid, client, "its context in creation was forgotten while its session was made",
						false);
			}
			return step(xid, reserved, context, token, client);
		}
		catch (RuntimeException ex) {
			this.contexts.remove(reserved);
			throw ex;
		}
	}

	/** RPCSEC_GSS_CONTINUE_INIT, on the executor: another step of a context in creation. */
	private Outcome continueInit(int xid, GssCredential credential, byte[] token, Origin client) {
		long id = contextId(credential);
		GssContextTable.Entry<Context> entry = (id != 0) ? this.contexts.get(id) : null;
		Context context = (entry != null) ? entry.value() : null;
		if (context == null || entry.established() || !entry.binding.equals(client.binding())
				|| this.contexts.creationExpired(entry)) {
			return new Refused(AuthStat.RPCSEC_GSS_CREDPROBLEM, "CONTINUE_INIT for no context in creation");
		}
		return step(xid, entry, context, token, client);
	}

	private Outcome step(int xid, GssContextTable.Entry<Context> entry, Context context, byte[] token, Origin client) {
		byte[] handle = handle(entry.id);
		try {
			byte[] reply = context.session.step(token);
			if (!context.session.established()) {
				if (entry.removed()) {
					return unavailable(xid, client, "its context in creation was forgotten during its step", false);
				}
				return new Control(initResult(xid, handle, GSS_S_CONTINUE_NEEDED, 0, reply, null));
			}
			String principal = context.session.peer();
			try {
				if (!this.contexts.establish(entry, principal)) {
					return unavailable(xid, client, "the context of " + principal + " was forgotten during its step"
							+ " (creation timeout " + Durations.written(this.contexts.limits().creationTimeout())
							+ " passed, the connection closed, or it gave way to a new context)", false);
				}
			}
			catch (GssContextRefusedException ex) {
				return unavailable(xid, client, ex.getMessage(), ex.first());
			}
			// RFC 2203 §5.2.3.1: the verifier is a MIC over the window, proving the server.
			byte[] windowBytes = ByteBuffer.allocate(4).putInt(this.window).array();
			OpaqueAuth verifier = new RawAuth(AuthFlavor.RPCSEC_GSS, context.session.mic(windowBytes, 0, 4));
			logger.log(Level.DEBUG, () -> "RPCSEC_GSS context established for " + principal + " from "
					+ client.client());
			return new Control(initResult(xid, handle, GSS_S_COMPLETE, 0, reply, verifier));
		}
		catch (GssFailureException ex) {
			this.contexts.remove(entry);
			logger.log(Level.DEBUG, () -> "RPCSEC_GSS context creation from " + client.client() + " failed: "
					+ ex.getMessage());
			return new Control(initResult(xid, new byte[0], ex.major(), ex.minor(), new byte[0], null));
		}
		catch (RuntimeException ex) {
			// Anything else a step throws (a local login failure, or a token some GSS code does
			// not handle): the half-made context must not keep a slot of the bounded table.
			this.contexts.remove(entry);
			throw ex;
		}
	}

	/** RFC 2203 §5.3.3: a call under an established context (DATA), or its end (DESTROY). */
	private Outcome data(RpcCall call, GssCredential credential, ByteBuffer message, int start, Origin client) {
		long id = contextId(credential);
		GssContextTable.Entry<Context> entry = (id != 0) ? this.contexts.get(id) : null;
		Context context = (entry != null && entry.established()) ? entry.value() : null;
		if (context == null) {
			return new Refused(AuthStat.RPCSEC_GSS_CREDPROBLEM, "no established context with that handle");
		}
		if (!entry.binding.equals(client.binding())) {
			// A handle is not a bearer token: it works only on the connection that created it.
			return new Refused(AuthStat.RPCSEC_GSS_CREDPROBLEM, "a context handle created on another connection");
		}
		if (Integer.toUnsignedLong(credential.sequence()) >= Integer.toUnsignedLong(GssCredential.MAXSEQ)) {
			this.contexts.remove(entry);
			return new Refused(AuthStat.RPCSEC_GSS_CTXPROBLEM, "sequence number at or above MAXSEQ (RFC 2203 §5.3.3.1)");
		}
		if (!(call.verifier() instanceof RawAuth verifier) || verifier.flavor() != AuthFlavor.RPCSEC_GSS) {
			return new Refused(AuthStat.RPCSEC_GSS_CREDPROBLEM, "a verifier that is not an RPCSEC_GSS MIC");
		}
		// RFC 2203 §5.3.1: the MIC covers the header from the xid through the credential.
		int headerLength = 24 + RpcMessageCodec.encodedSize(call.credential());
		byte[] header = new byte[headerLength];
		message.get(start, header);
		if (!context.session.verifyMic(header, 0, headerLength, verifier.body())) {
			return new Refused(AuthStat.RPCSEC_GSS_CREDPROBLEM, "the header's MIC does not verify");
		}
		SequenceWindow.Verdict verdict = context.window.accept(credential.sequence());
		if (verdict != SequenceWindow.Verdict.ACCEPTED) {
			return new Discarded("sequence number " + Integer.toUnsignedString(credential.sequence()) + " "
					+ verdict.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
		}
		this.contexts.touch(entry);
		byte[] sequence = ByteBuffer.allocate(4).putInt(credential.sequence()).array();
		OpaqueAuth replyVerifier;
		try {
			replyVerifier = new RawAuth(AuthFlavor.RPCSEC_GSS, context.session.mic(sequence, 0, 4));
		}
		catch (GssFailureException ex) {
			// Destroyed meanwhile (its connection closed, or it gave way): as if it were not there.
			return new Refused(AuthStat.RPCSEC_GSS_CREDPROBLEM, "the context was destroyed while the call was checked");
		}
		String principal = entry.principal();
		if (credential.procedure() == GssProcedure.DESTROY) {
			if (call.procedure() != 0) {
				return new Refused(AuthStat.AUTH_BADCRED, "DESTROY on a procedure other than NULL (RFC 2203 §5.4)");
			}
			this.contexts.remove(entry);
			ByteBuffer reply = ByteBuffer.allocate(64 + RpcMessageCodec.encodedSize(replyVerifier));
			RpcMessageCodec.encodeReply(RpcReply.success(call.xid(), replyVerifier), new XdrEncoder(reply));
			return new Control(reply.flip());
		}
		return switch (credential.service()) {
			case NONE -> new Admitted(new GssPrincipal(principal, SecurityFlavor.KRB5), replyVerifier, null);
			case INTEGRITY -> new Admitted(new GssPrincipal(principal, SecurityFlavor.KRB5I), replyVerifier,
					new GssBodyProtection(context.session, GssService.INTEGRITY, credential.sequence()));
			case PRIVACY -> new Admitted(new GssPrincipal(principal, SecurityFlavor.KRB5P), replyVerifier,
					new GssBodyProtection(context.session, GssService.PRIVACY, credential.sequence()));
		};
	}

	/**
	 * A context refused for want of room, or whose slot went while it waited: SYSTEM_ERR with
	 * a NULL verifier (RFC 5531 §9: the server's resources, not the caller's credentials).
	 * @param first whether it is worth a warning: a flood of refused INITs logs once per holder
	 */
	private Control unavailable(int xid, Origin client, String reason, boolean first) {
		this.refused.increment();
		logger.log(first ? Level.WARNING : Level.DEBUG, () -> "Refusing an RPCSEC_GSS context to " + client.client()
				+ " with SYSTEM_ERR: " + reason);
		ByteBuffer reply = ByteBuffer.allocate(64);
		RpcMessageCodec.encodeReply(RpcReply.systemErr(xid), new XdrEncoder(reply));
		return new Control(reply.flip());
	}

	private byte[] handle(long id) {
		return ByteBuffer.allocate(HANDLE_LENGTH).putLong(this.instance).putLong(id).array();
	}

	/** The context number a handle names, 0 if the handle is not one of this server's. */
	private long contextId(GssCredential credential) {
		byte[] handle = credential.handle();
		if (handle.length != HANDLE_LENGTH) {
			return 0;
		}
		ByteBuffer bytes = ByteBuffer.wrap(handle);
		return (bytes.getLong() == this.instance) ? bytes.getLong() : 0;
	}

	/**
	 * RFC 2203 §5.2.3.1: a successful reply whose results are {@code rpc_gss_init_res}.
	 */
	private ByteBuffer initResult(int xid, byte[] handle, int major, int minor, byte[] token, OpaqueAuth verifier) {
		OpaqueAuth verf = (verifier != null) ? verifier : OpaqueAuth.none();
		ByteBuffer reply = ByteBuffer.allocate(64 + RpcMessageCodec.encodedSize(verf) + handle.length + token.length + 8);
		XdrEncoder encoder = new XdrEncoder(reply);
		RpcMessageCodec.encodeReply(RpcReply.success(xid, verf), encoder);
		encoder.writeOpaque(handle).writeInt(major).writeInt(minor).writeInt(this.window).writeOpaque(token);
		return reply.flip();
	}

	/** What a context holds: its GSS session and its sequence window. */
	private static final class Context {

		final GssSession session;

		final SequenceWindow window;

		Context(GssSession session, SequenceWindow window) {
			this.session = session;
			this.window = window;
		}

	}

}

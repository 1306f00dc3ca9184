package io.rpcrdma.server.security;

import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

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
 * to the client key instead. Contexts are bounded in number; the oldest idle one gives way to
 * a new one.
 * <p>
 * Services: {@code rpc_gss_svc_none} (krb5), {@code rpc_gss_svc_integrity} (krb5i) and
 * {@code rpc_gss_svc_privacy} (krb5p), whose bodies the dispatcher checks and protects through
 * the {@link GssBodyProtection} an admitted call carries.
 */
public final class RpcSecGssServer {

	private static final System.Logger logger = System.getLogger(RpcSecGssServer.class.getName());

	/** RFC 2203 §5.2.3.1: the window announced; Linux's svcauth_gss uses 128 too. */
	public static final int DEFAULT_WINDOW = 128;

	/** The most contexts held at once, by default. */
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

	private final int maxContexts;

	private final Duration idleLimit;

	/** Random per server, the first half of every handle, so handles of another server never match. */
	private final long instance = new SecureRandom().nextLong();

	private final AtomicLong nextContext = new AtomicLong(1);

	private final Map<Long, Context> contexts = new ConcurrentHashMap<>();

	/**
	 * @param acceptor the service's Kerberos credentials (from its keytab)
	 */
	public RpcSecGssServer(KerberosCredentials acceptor) {
		this(acceptor, DEFAULT_WINDOW, DEFAULT_MAX_CONTEXTS, Duration.ofHours(1));
	}

	/**
	 * @param acceptor the service's Kerberos credentials
	 * @param window the sequence window announced to clients, 1 to 65536
	 * @param maxContexts the most contexts held at once
	 * @param idleLimit how long an unused context may be kept when room is needed
	 */
	public RpcSecGssServer(KerberosCredentials acceptor, int window, int maxContexts, Duration idleLimit) {
		this.acceptor = Objects.requireNonNull(acceptor, "acceptor");
		if (!acceptor.acceptor()) {
			throw new IllegalArgumentException(acceptor + " initiates contexts; a server needs acceptor credentials"
					+ " (KerberosCredentials.acceptorFromKeytab)");
		}
		new SequenceWindow(window);
		if (maxContexts < 1) {
			throw new IllegalArgumentException("maxContexts must be at least 1, got " + maxContexts);
		}
		this.window = window;
		this.maxContexts = maxContexts;
		this.idleLimit = Objects.requireNonNull(idleLimit, "idleLimit");
	}

	/** @return the contexts held */
	public int contexts() {
		return this.contexts.size();
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
	public record Origin(Object client, Object connection, java.util.concurrent.CompletableFuture<Void> connectionClosed) {

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
	 * thread that received the call. Everything it needs from the call is copied already.
	 * @param step takes the step, answering {@link Control} or {@link Refused}
	 */
	public record ContextStep(Supplier<Outcome> step) implements Outcome {
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
		return new ContextStep(() -> step(xid, credential, token, client));
	}

	private Outcome step(int xid, GssCredential credential, byte[] token, Origin client) {
		Context context;
		long id;
		if (credential.procedure() == GssProcedure.INIT) {
			if (!makeRoom()) {
				return new Control(initResult(xid, new byte[0], GSS_S_FAILURE, 0, new byte[0], null));
			}
			id = this.nextContext.getAndIncrement();
			context = new Context(client.binding(), GssSession.accept(this.acceptor), new SequenceWindow(this.window));
			this.contexts.put(id, context);
			if (client.connectionClosed() != null) {
				// A context is worth nothing once its connection is gone: free its slot at once.
				long created = id;
				client.connectionClosed().whenComplete((ignored, failure) -> remove(created));
			}
		}
		else {
			id = contextId(credential);
			context = (id != 0) ? this.contexts.get(id) : null;
			if (context == null || !context.binding.equals(client.binding()) || context.session.established()) {
				return new Refused(AuthStat.RPCSEC_GSS_CREDPROBLEM, "CONTINUE_INIT for no context in creation");
			}
		}
		byte[] handle = handle(id);
		try {
			byte[] reply = context.session.step(token);
			context.touch();
			if (!context.session.established()) {
				return new Control(initResult(xid, handle, GSS_S_CONTINUE_NEEDED, 0, reply, null));
			}
			context.principal = context.session.peer();
			// RFC 2203 §5.2.3.1: the verifier is a MIC over the window, proving the server.
			byte[] windowBytes = ByteBuffer.allocate(4).putInt(this.window).array();
			OpaqueAuth verifier = new RawAuth(AuthFlavor.RPCSEC_GSS, context.session.mic(windowBytes, 0, 4));
			logger.log(Level.DEBUG, () -> "RPCSEC_GSS context established for " + context.principal + " from "
					+ client.client());
			return new Control(initResult(xid, handle, GSS_S_COMPLETE, 0, reply, verifier));
		}
		catch (GssFailureException ex) {
			remove(id);
			logger.log(Level.DEBUG, () -> "RPCSEC_GSS context creation from " + client.client() + " failed: "
					+ ex.getMessage());
			return new Control(initResult(xid, new byte[0], ex.major(), ex.minor(), new byte[0], null));
		}
	}

	/** RFC 2203 §5.3.3: a call under an established context (DATA), or its end (DESTROY). */
	private Outcome data(RpcCall call, GssCredential credential, ByteBuffer message, int start, Origin client) {
		long id = contextId(credential);
		Context context = (id != 0) ? this.contexts.get(id) : null;
		if (context == null || !context.session.established()) {
			return new Refused(AuthStat.RPCSEC_GSS_CREDPROBLEM, "no established context with that handle");
		}
		if (!context.binding.equals(client.binding())) {
			// A handle is not a bearer token: it works only on the connection that created it.
			return new Refused(AuthStat.RPCSEC_GSS_CREDPROBLEM, "a context handle created on another connection");
		}
		if (Integer.toUnsignedLong(credential.sequence()) >= Integer.toUnsignedLong(GssCredential.MAXSEQ)) {
			remove(id);
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
		context.touch();
		byte[] sequence = ByteBuffer.allocate(4).putInt(credential.sequence()).array();
		OpaqueAuth replyVerifier = new RawAuth(AuthFlavor.RPCSEC_GSS, context.session.mic(sequence, 0, 4));
		if (credential.procedure() == GssProcedure.DESTROY) {
			if (call.procedure() != 0) {
				return new Refused(AuthStat.AUTH_BADCRED, "DESTROY on a procedure other than NULL (RFC 2203 §5.4)");
			}
			remove(id);
			ByteBuffer reply = ByteBuffer.allocate(64 + RpcMessageCodec.encodedSize(replyVerifier));
			RpcMessageCodec.encodeReply(RpcReply.success(call.xid(), replyVerifier), new XdrEncoder(reply));
			return new Control(reply.flip());
		}
		return switch (credential.service()) {
			case NONE -> new Admitted(new GssPrincipal(context.principal, SecurityFlavor.KRB5), replyVerifier, null);
			case INTEGRITY -> new Admitted(new GssPrincipal(context.principal, SecurityFlavor.KRB5I), replyVerifier,
					new GssBodyProtection(context.session, GssService.INTEGRITY, credential.sequence()));
			case PRIVACY -> new Admitted(new GssPrincipal(context.principal, SecurityFlavor.KRB5P), replyVerifier,
					new GssBodyProtection(context.session, GssService.PRIVACY, credential.sequence()));
		};
	}

	/** Drops the oldest idle context when full; false if every context is in recent use. */
	private boolean makeRoom() {
		if (this.contexts.size() < this.maxContexts) {
			return true;
		}
		long now = System.nanoTime();
		long idleNanos = this.idleLimit.toNanos();
		for (Iterator<Map.Entry<Long, Context>> it = this.contexts.entrySet().iterator(); it.hasNext();) {
			Map.Entry<Long, Context> entry = it.next();
			if (now - entry.getValue().lastUsed > idleNanos) {
				it.remove();
				entry.getValue().session.close();
				return true;
			}
		}
		logger.log(Level.WARNING, "RPCSEC_GSS context table full (" + this.maxContexts
				+ " contexts in use); refusing a new context");
		return false;
	}

	private void remove(long id) {
		Context removed = this.contexts.remove(id);
		if (removed != null) {
			removed.session.close();
		}
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

	private static final class Context {

		/** The connection it was created on (or the client key, for calls over none). */
		final Object binding;

		final GssSession session;

		final SequenceWindow window;

		volatile String principal;

		volatile long lastUsed = System.nanoTime();

		Context(Object binding, GssSession session, SequenceWindow window) {
			this.binding = binding;
			this.session = session;
			this.window = window;
		}

		void touch() {
			this.lastUsed = System.nanoTime();
		}

	}

}

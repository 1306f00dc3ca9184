package io.rpcrdma.client.security;

import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

import io.rpcrdma.client.AuthenticationException;
import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.CallChunks;
import io.rpcrdma.client.ConnectionProtection;
import io.rpcrdma.client.ReceivedReply;
import io.rpcrdma.client.RemoteSystemErrorException;
import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.RpcClient;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.oncrpc.AcceptedReply;
import io.rpcrdma.oncrpc.AuthFlavor;
import io.rpcrdma.oncrpc.AuthStat;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.oncrpc.RawAuth;
import io.rpcrdma.oncrpc.gss.GssCredential;
import io.rpcrdma.oncrpc.gss.GssFailureException;
import io.rpcrdma.oncrpc.gss.GssProcedure;
import io.rpcrdma.oncrpc.gss.GssProtectedBody;
import io.rpcrdma.oncrpc.gss.GssService;
import io.rpcrdma.oncrpc.gss.GssSession;
import io.rpcrdma.oncrpc.gss.KerberosCredentials;
import io.rpcrdma.protocol.ccp.ConfigRdmaCodec;
import io.rpcrdma.protocol.ccp.ConfigRdmaProgram;
import io.rpcrdma.protocol.ccp.ConfigRdmaRequest;
import io.rpcrdma.transport.RegisteredItem;
import io.rpcrdma.transport.RpcRdmaClientConnection;
import io.rpcrdma.xdr.Xdr;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrException;

/**
 * The client's half of RPCSEC_GSS version 1 (RFC 2203) with Kerberos V5: an
 * {@link RpcCaller} over another one whose calls carry an RPCSEC_GSS credential with a fresh
 * sequence number and a MIC over their header as verifier (§5.3.1), and whose replies must
 * carry the server's MIC over that sequence number (§5.3.3.2), else the call fails with
 * {@link GssFailureException}. With service {@link GssService#INTEGRITY} (krb5i) every body
 * also carries a MIC, with {@link GssService#PRIVACY} (krb5p) it is encrypted (§5.3.2.2,
 * §5.3.2.3); a reply body that does not verify fails the call with
 * {@link io.rpcrdma.oncrpc.gss.GssProtectedBodyException}. As RFC 5666 §11 says, a protected
 * body travels whole: such calls offer no direct placement (a large body goes as a long
 * message, a large reply in a Reply chunk).
 * <p>
 * The context is created through the NULL procedure of a program the server serves (§5.2.2):
 * at once by {@link #establish}, or by {@link #onFirstCall} with the first call's program, so
 * that a client may be made before its server listens. When the server has lost it (it answers RPCSEC_GSS_CREDPROBLEM or
 * CTXPROBLEM, which runs nothing), its sequence numbers run out or its service ticket ends, a
 * new one is created and the call sent (again, once); the credentials log in again first when
 * their ticket-granting ticket is about to end ({@link KerberosCredentials}). Context creation, which may ask the KDC for a service ticket,
 * runs on the given executor, never on a transport thread. {@link #close()} destroys the
 * context on the server (§5.4).
 */
public final class RpcSecGssClient implements ConnectionProtection {

	private static final System.Logger logger = System.getLogger(RpcSecGssClient.class.getName());

	/** GSS_S_COMPLETE and GSS_S_CONTINUE_NEEDED (RFC 2744 §3.9.1). */
	private static final int GSS_S_COMPLETE = 0;

	private static final int GSS_S_CONTINUE_NEEDED = 1;

	/** GSS_S_BAD_SIG (RFC 2744): a verifier that does not verify. */
	private static final int GSS_S_BAD_SIG = 6 << 16;

	/** The longest {@link #close()} waits for the server to confirm a destroy. */
	public static final Duration DESTROY_WAIT = Duration.ofSeconds(2);

	/** Round trips a Kerberos context takes at most: one, or two with mutual authentication's reply. */
	private static final int MAX_ROUNDS = 4;

	/** Context creation calls and replies: a token and a header; tickets with large PACs fit too. */
	private static final CallChunks INIT_SHAPE = CallChunks.of(RpcClient.DEFAULT_MAX_CALL_SIZE, RpcClient.DEFAULT_MAX_CALL_SIZE);

	/** CONF_RDMA's three words each way: within the 1024 bytes every connection sends inline. */
	private static final CallChunks CCP_SHAPE = CallChunks.of(1024, 1024);

	private final RpcCaller caller;

	private final KerberosCredentials credentials;

	private final String service;

	/** The protection of every call's body. */
	private final GssService protection;

	private final Executor executor;

	private final Duration timeout;

	/** The context in use; {@code null} before the first call of a client made {@link #onFirstCall}. */
	private volatile GssClientContext context;

	private volatile boolean closed;

	/** The context creation under way, shared by every call that needs a new one. */
	private CompletableFuture<GssClientContext> renewal;

	private RpcSecGssClient(RpcCaller caller, KerberosCredentials credentials, String service, GssService protection,
			Executor executor, Duration timeout) {
		this.caller = Objects.requireNonNull(caller, "caller");
		if (caller instanceof RpcClientPool pool && pool.config().maxConnections() > 1) {
			throw new IllegalArgumentException("An RPCSEC_GSS context is bound to the connection it was created on,"
					+ " and the pool for " + pool.endpoint() + " may open " + pool.config().maxConnections()
					+ ": protect each of its connections instead, with pool.protectConnections((connection) ->"
					+ " RpcSecGssClient.onFirstCall(connection, ...))");
		}
		this.protection = Objects.requireNonNull(protection, "protection");
		this.credentials = Objects.requireNonNull(credentials, "credentials");
		if (credentials.acceptor()) {
			throw new IllegalArgumentException(credentials + " accepts contexts; a client needs initiator credentials"
					+ " (KerberosCredentials.initiatorFromKeytab or initiatorFromTicketCache)");
		}
		this.service = Objects.requireNonNull(service, "service");
		this.executor = Objects.requireNonNull(executor, "executor");
		this.timeout = Objects.requireNonNull(timeout, "timeout");
	}

	/**
	 * Creates an RPCSEC_GSS context with the server and waits for it.
	 * @param caller the connection or pool to the server
	 * @param program a program the server serves: its NULL procedure carries context creation
	 * @param version its version
	 * @param credentials the client's Kerberos login
	 * @param service the server as a GSS host-based service name, {@code service@host}, e.g.
	 * {@code rpcrdma@server.example.com} for the principal {@code rpcrdma/server.example.com@REALM}
	 * @param timeout how long creating a context may take
	 * @return the client, with its context established
	 * @throws GssFailureException if the KDC or the server refused the context, or the server
	 * did not prove itself
	 * @throws GssContextUnavailableException if the server had no room for another context
	 * @throws io.rpcrdma.client.RpcCallException if the NULL calls failed
	 */
	public static RpcSecGssClient establish(RpcCaller caller, int program, int version, KerberosCredentials credentials,
			String service, Duration timeout) {
		return establish(caller, program, version, credentials, service, GssService.NONE, timeout);
	}

	/**
	 * Creates an RPCSEC_GSS context with the server and waits for it; calls are made with the
	 * given protection of their bodies.
	 * @param caller the connection or pool to the server
	 * @param program a program the server serves: its NULL procedure carries context creation
	 * @param version its version
	 * @param credentials the client's Kerberos login
	 * @param service the server as a GSS host-based service name, {@code service@host}
	 * @param protection {@code NONE} (krb5), {@code INTEGRITY} (krb5i) or {@code PRIVACY} (krb5p)
	 * @param timeout how long creating a context may take
	 * @return the client, with its context established
	 * @throws GssFailureException if the KDC or the server refused the context, or the server
	 * did not prove itself
	 */
	public static RpcSecGssClient establish(RpcCaller caller, int program, int version, KerberosCredentials credentials,
			String service, GssService protection, Duration timeout) {
		RpcSecGssClient client = new RpcSecGssClient(caller, credentials, service, protection, ForkJoinPool.commonPool(),
				timeout);
		client.context = join(client.create(program, version), timeout);
		return client;
	}

	/**
	 * A client whose context is created by its first call, through the NULL procedure of
	 * that call's program; calls that come meanwhile wait for the same context.
	 * @param caller the connection or pool to the server
	 * @param credentials the client's Kerberos login
	 * @param service the server as a GSS host-based service name, {@code service@host}
	 * @param timeout how long creating a context may take
	 * @return the client
	 */
	public static RpcSecGssClient onFirstCall(RpcCaller caller, KerberosCredentials credentials, String service,
			Duration timeout) {
		return onFirstCall(caller, credentials, service, GssService.NONE, timeout);
	}

	/**
	 * A client whose context is created by its first call, whose calls are made with the
	 * given protection of their bodies.
	 * @param caller the connection or pool to the server
	 * @param credentials the client's Kerberos login
	 * @param service the server as a GSS host-based service name, {@code service@host}
	 * @param protection {@code NONE} (krb5), {@code INTEGRITY} (krb5i) or {@code PRIVACY} (krb5p)
	 * @param timeout how long creating a context may take
	 * @return the client
	 */
	public static RpcSecGssClient onFirstCall(RpcCaller caller, KerberosCredentials credentials, String service,
			GssService protection, Duration timeout) {
		return new RpcSecGssClient(caller, credentials, service, protection, ForkJoinPool.commonPool(), timeout);
	}

	/** @return the protection of every call's body */
	public GssService protection() {
		return this.protection;
	}

	/** @return the sequence window the server announced (RFC 2203 §5.2.3.1), 0 before there is a context */
	public int window() {
		GssClientContext current = this.context;
		return (current != null) ? current.window : 0;
	}

	/** @return the service this client's context is with */
	public String service() {
		return this.service;
	}

	@Override
	public String endpoint() {
		return this.caller.endpoint();
	}

	@Override
	public CompletableFuture<ReceivedReply> call(int program, int version, int procedure, CallBody arguments,
			CallChunks shape, boolean idempotent, Duration timeout) {
		if (this.closed) {
			return CompletableFuture.failedFuture(closedException());
		}
		GssClientContext current = this.context;
		if (current == null || current.exhausted()) {
			// The server still holds an exhausted context: the new one's arrival destroys it there.
			return renew(current, program, version, true).thenCompose((renewed) -> send(renewed, program, version,
					procedure, arguments, shape, idempotent, timeout, false));
		}
		return send(current, program, version, procedure, arguments, shape, idempotent, timeout, true);
	}

	private CompletableFuture<ReceivedReply> send(GssClientContext with, int program, int version, int procedure,
			CallBody arguments, CallChunks shape, boolean idempotent, Duration timeout, boolean mayRenew) {
		GssProtectedCall call = new GssProtectedCall(with, arguments, GssProcedure.DATA, this.protection,
				shape.maxCallSize(), shape.registeredArguments());
		CallChunks sent = shape;
		if (this.protection != GssService.NONE) {
			// RFC 5666 §11: the protected body is one opaque; nothing in it is placed directly,
			// and data the caller meant to send from its registered buffer is copied into it.
			long registered = 0;
			for (RegisteredItem item : shape.registeredArguments()) {
				registered += Xdr.pad(item.length());
			}
			// Results that would have come by Write chunk come in the protected body instead.
			long placedResults = 0;
			for (int size : shape.writeChunkSizes()) {
				placedResults += Xdr.pad(size);
			}
			sent = CallChunks.of((int) Math.min(Integer.MAX_VALUE, shape.maxCallSize() + registered
					+ GssProtectedBody.MAX_OVERHEAD), (int) Math.min(Integer.MAX_VALUE, shape.maxReplySize() + placedResults
							+ GssProtectedBody.MAX_OVERHEAD));
		}
		CompletableFuture<ReceivedReply> reply = this.caller.call(program, version, procedure, call, sent, idempotent,
				timeout);
		return reply.handle((received, failure) -> {
			if (failure == null) {
				return CompletableFuture.completedFuture(verified(call, received));
			}
			Throwable cause = unwrap(failure);
			if (mayRenew && cause instanceof AuthenticationException refused && lostContext(refused.authStat())) {
				// RFC 2203 §5.3.3.3: the server no longer knows the context; the call did not run.
				logger.log(Level.DEBUG, () -> "RPCSEC_GSS context with " + this.service + " refused ("
						+ refused.authStat() + "); creating a new one");
				return renew(with, program, version, false).thenCompose((renewed) -> send(renewed, program, version,
						procedure, arguments, shape, idempotent, timeout, false));
			}
			return CompletableFuture.<ReceivedReply>failedFuture(cause);
		}).thenCompose((next) -> next);
	}

	private static boolean lostContext(AuthStat status) {
		return status == AuthStat.RPCSEC_GSS_CREDPROBLEM || status == AuthStat.RPCSEC_GSS_CTXPROBLEM;
	}

	/** RFC 2203 §5.3.3.2: the reply's verifier is the server's MIC over the call's sequence number. */
	private ReceivedReply verified(GssProtectedCall call, ReceivedReply reply) {
		OpaqueAuth verifier = (reply.header().body() instanceof AcceptedReply accepted) ? accepted.verifier() : null;
		if (verifier instanceof RawAuth mic && mic.flavor() == AuthFlavor.RPCSEC_GSS && call.verifies(mic.body())) {
			return (this.protection == GssService.NONE) ? reply : call.unprotect(reply);
		}
		reply.release();
		throw new GssFailureException("The reply from " + endpoint() + " to " + call.procedureNameOrNumbers()
				+ " does not carry the RPCSEC_GSS verifier of " + this.service + " (RFC 2203 §5.3.3.2): the reply was"
				+ " forged or the server is not the one the context was created with", GSS_S_BAD_SIG, 0);
	}

	private IllegalStateException closedException() {
		return new IllegalStateException("The RPCSEC_GSS client for " + this.service + " is closed");
	}

	/**
	 * Starts (or joins) the creation of a context to replace {@code stale} ({@code null}: the
	 * first).
	 * @param destroyStale whether the server still holds {@code stale} (it ran out of sequence
	 * numbers or its ticket ended) and is to be sent RPCSEC_GSS_DESTROY once replaced; not when
	 * the server refused it (it no longer knows it, RFC 2203 §5.3.3.3)
	 */
	private synchronized CompletableFuture<GssClientContext> renew(GssClientContext stale, int program, int version,
			boolean destroyStale) {
		if (this.closed) {
			return CompletableFuture.failedFuture(closedException());
		}
		GssClientContext current = this.context;
		if (current != stale) {
			return CompletableFuture.completedFuture(current);
		}
		if (this.renewal == null) {
			CompletableFuture<GssClientContext> created = create(program, version);
			this.renewal = created;
			created.whenComplete((fresh, failure) -> replaced(stale, created, fresh, destroyStale));
		}
		return this.renewal;
	}

	private void replaced(GssClientContext stale, CompletableFuture<GssClientContext> creation, GssClientContext fresh,
			boolean destroyStale) {
		boolean retired;
		synchronized (this) {
			if (this.renewal == creation) {
				this.renewal = null;
			}
			if (fresh == null) {
				return;
			}
			if (this.closed) {
				fresh.session.close();
				return;
			}
			retired = this.context == stale && stale != null;
			if (this.context == stale) {
				this.context = fresh;
			}
		}
		if (retired) {
			if (destroyStale) {
				// RFC 2203 §5.4: a context no longer used is destroyed, or the server keeps it
				// (and counts it against this connection's and principal's shares) until idle.
				destroy(stale);
			}
			else {
				stale.session.close();
			}
		}
	}

	/** RFC 2203 §5.2: INIT, then CONTINUE_INIT until both ends are established. */
	private CompletableFuture<GssClientContext> create(int program, int version) {
		return CompletableFuture.supplyAsync(() -> GssSession.initiate(this.credentials, this.service), this.executor)
			.thenCompose((session) -> step(session, program, version, new byte[0], new byte[0], 1).whenComplete((context, failure) -> {
				if (failure != null) {
					session.close();
				}
			}))
			.thenCompose(this::configureConnection);
	}

	/**
	 * RFC 5666 §6.2, §11: a connection that still wants in-band configuration (its provider
	 * exchanges no RFC 8797 private data, or CCP is asked for always, and a server with a
	 * security policy refused the unprotected CONF_RDMA the transport sent when it connected)
	 * sends CONF_RDMA under the new context, before the calls that wait for the context, and
	 * takes the server's sizes. A server that refuses it or does not serve it leaves the
	 * version's defaults, as RFC 5666 §6 allows; the context is good either way.
	 */
	private CompletableFuture<GssClientContext> configureConnection(GssClientContext fresh) {
		RpcRdmaClientConnection connection = (this.caller instanceof RpcClient client
				&& client.transport() instanceof RpcRdmaClientConnection rdma) ? rdma : null;
		if (connection == null || !connection.wantsInBandConfiguration()) {
			return CompletableFuture.completedFuture(fresh);
		}
		ConfigRdmaRequest request = connection.inBandRequest();
		CallBody conf = new CallBody() {

			@Override
			public void write(XdrEncoder encoder) {
				ConfigRdmaCodec.encode(request, encoder);
			}

			@Override
			public String procedureName() {
				return "CONF_RDMA";
			}

		};
		return send(fresh, ConfigRdmaProgram.PROGRAM, ConfigRdmaProgram.VERSION, ConfigRdmaProgram.CONF_RDMA, conf,
				CCP_SHAPE, true, this.timeout, false).handle((reply, failure) -> {
					if (reply == null) {
						logger.log(Level.DEBUG, () -> "CONF_RDMA under RPCSEC_GSS to " + endpoint() + " failed ("
								+ unwrap(failure) + "); the connection keeps its version's inline sizes");
						return fresh;
					}
					try {
						if (!connection.applyInBandConfiguration(ConfigRdmaCodec.decodeReply(reply.results()))) {
							logger.log(Level.DEBUG, () -> "CONF_RDMA reply from " + endpoint() + " below RFC 8166 §3.3.2's"
									+ " minimum; the connection keeps its version's inline sizes");
						}
					}
					catch (XdrException ex) {
						logger.log(Level.DEBUG, () -> "CONF_RDMA reply from " + endpoint() + " is malformed: "
								+ ex.getMessage());
					}
					finally {
						reply.release();
					}
					return fresh;
				});
	}

	private CompletableFuture<GssClientContext> step(GssSession session, int program, int version, byte[] input,
			byte[] handle, int round) {
		if (round > MAX_ROUNDS) {
			return CompletableFuture.failedFuture(new GssFailureException("RPCSEC_GSS context creation with "
					+ this.service + " took more than " + MAX_ROUNDS + " round trips", GssFailureException.FAILURE, 0));
		}
		return CompletableFuture.supplyAsync(() -> session.step(input), this.executor).thenCompose((token) -> {
			GssCredential credential = new GssCredential((handle.length == 0) ? GssProcedure.INIT
					: GssProcedure.CONTINUE_INIT, 0, GssService.NONE, handle);
			CallBody init = new GssInitCall(credential.toAuth(), token);
			return this.caller.call(program, version, 0, init, INIT_SHAPE, true, this.timeout);
		}).exceptionally((failure) -> {
			// An rpcrdma server answers SYSTEM_ERR to a context it has no room for: say so, so
			// that nobody goes looking for a fault in the keytab.
			if (unwrap(failure) instanceof RemoteSystemErrorException refused) {
				throw new GssContextUnavailableException(refused.call(), this.credentials.principal(), this.service);
			}
			throw (failure instanceof CompletionException completion) ? completion : new CompletionException(failure);
		}).thenComposeAsync((reply) -> {
			GssInitResult result;
			OpaqueAuth verifier;
			try {
				verifier = (reply.header().body() instanceof AcceptedReply accepted) ? accepted.verifier() : null;
				result = GssInitResult.decode(reply.results());
			}
			catch (XdrException ex) {
				throw new GssFailureException("The RPCSEC_GSS context creation reply from " + endpoint()
						+ " is malformed: " + ex.getMessage(), GssFailureException.FAILURE, 0);
			}
			finally {
				reply.release();
			}
			return next(session, program, version, result, verifier, round);
		}, this.executor);
	}

	private CompletableFuture<GssClientContext> next(GssSession session, int program, int version, GssInitResult result,
			OpaqueAuth verifier, int round) {
		if (result.major() != GSS_S_COMPLETE && result.major() != GSS_S_CONTINUE_NEEDED) {
			throw new GssFailureException("The server at " + endpoint() + " refused the RPCSEC_GSS context of "
					+ this.credentials.principal() + " for " + this.service + ": GSS major status 0x"
					+ Integer.toHexString(result.major()) + ", minor " + result.minor()
					+ "; check that the server's keytab holds the key of the service principal the client asked for",
					result.major(), result.minor());
		}
		if (result.major() == GSS_S_CONTINUE_NEEDED) {
			return step(session, program, version, result.token(), result.handle(), round + 1);
		}
		if (result.token().length > 0) {
			// Mutual authentication: the server's AP-REP completes the client's side.
			session.step(result.token());
		}
		if (!session.established()) {
			throw new GssFailureException("The server at " + endpoint() + " declared the RPCSEC_GSS context complete"
					+ " before the client's side was", GssFailureException.FAILURE, 0);
		}
		// RFC 2203 §5.2.3.1: the verifier of the final reply is a MIC over the window.
		byte[] window = ByteBuffer.allocate(4).putInt(result.window()).array();
		if (!(verifier instanceof RawAuth mic) || mic.flavor() != AuthFlavor.RPCSEC_GSS
				|| !session.verifyMic(window, 0, 4, mic.body())) {
			throw new GssFailureException("The server at " + endpoint() + " did not prove it is " + this.service
					+ ": its context creation reply lacks the MIC over the sequence window (RFC 2203 §5.2.3.1)",
					GSS_S_BAD_SIG, 0);
		}
		if (result.window() < 1) {
			throw new GssFailureException("The server at " + endpoint() + " announced a sequence window of "
					+ Integer.toUnsignedString(result.window()), GssFailureException.FAILURE, 0);
		}
		logger.log(Level.DEBUG, () -> "RPCSEC_GSS context with " + this.service + " at " + endpoint() + " as "
				+ this.credentials.principal() + ", window " + result.window());
		return CompletableFuture
			.completedFuture(new GssClientContext(session, result.handle(), result.window(), program, version));
	}

	/**
	 * Destroys the context on the server (RFC 2203 §5.4), waiting up to {@link #DESTROY_WAIT}
	 * (the server may be shutting down too: it forgets idle contexts, and those of a closed
	 * connection, by itself), and disposes of it here. Calls after this fail.
	 */
	@Override
	public void close() {
		closeAsync().join();
	}

	/**
	 * {@link #close()} without blocking: completes, never exceptionally, when the server
	 * confirmed the destroy or after {@link #DESTROY_WAIT}.
	 */
	@Override
	public CompletableFuture<Void> closeAsync() {
		GssClientContext closing;
		synchronized (this) {
			this.closed = true;
			closing = this.context;
			this.context = null;
		}
		if (closing == null) {
			return CompletableFuture.completedFuture(null);
		}
		return destroy(closing);
	}

	/**
	 * Sends RPCSEC_GSS_DESTROY for a context (RFC 2203 §5.4), waiting up to
	 * {@link #DESTROY_WAIT}, then disposes of it here.
	 * @return completes, never exceptionally, when the server confirmed or the wait is over
	 */
	private CompletableFuture<Void> destroy(GssClientContext closing) {
		CompletableFuture<ReceivedReply> destroyed;
		try {
			GssProtectedCall destroy = new GssProtectedCall(closing, CallBody.NONE, GssProcedure.DESTROY, GssService.NONE,
					0, List.of());
			Duration wait = (this.timeout.compareTo(DESTROY_WAIT) < 0) ? this.timeout : DESTROY_WAIT;
			// Not idempotent: a lost connection is not worth a reconnection for a destroy.
			destroyed = this.caller.call(closing.program, closing.version, 0, destroy, CallChunks.of(1024, 1024), false,
					wait).orTimeout(wait.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (RuntimeException ex) {
			destroyed = CompletableFuture.failedFuture(ex);
		}
		return destroyed.handle((reply, failure) -> {
			if (reply != null) {
				reply.release();
			}
			else {
				// The server forgets idle contexts by itself; nothing here depends on the destroy.
				logger.log(Level.DEBUG, () -> "RPCSEC_GSS DESTROY at " + endpoint() + " failed: " + unwrap(failure));
			}
			closing.session.close();
			return null;
		});
	}

	private static <T> T join(CompletableFuture<T> future, Duration timeout) {
		try {
			return future.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).join();
		}
		catch (CompletionException ex) {
			if (ex.getCause() instanceof RuntimeException cause) {
				throw cause;
			}
			throw ex;
		}
	}

	private static Throwable unwrap(Throwable failure) {
		return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure;
	}

}

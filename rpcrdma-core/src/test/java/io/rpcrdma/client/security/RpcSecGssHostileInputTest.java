package io.rpcrdma.client.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rpcrdma.client.AuthenticationException;
import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.CallChunks;
import io.rpcrdma.client.CallTimeoutException;
import io.rpcrdma.client.ReceivedReply;
import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.kerberos.MitKdc;
import io.rpcrdma.kerberos.MitKdcExtension;
import io.rpcrdma.oncrpc.AuthFlavor;
import io.rpcrdma.oncrpc.AuthStat;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.oncrpc.RawAuth;
import io.rpcrdma.oncrpc.gss.GssCredential;
import io.rpcrdma.oncrpc.gss.GssProcedure;
import io.rpcrdma.oncrpc.gss.GssService;
import io.rpcrdma.oncrpc.gss.GssSession;
import io.rpcrdma.oncrpc.gss.KerberosCredentials;
import io.rpcrdma.server.security.RpcSecGssServer;
import io.rpcrdma.server.security.SecurityFlavor;
import io.rpcrdma.server.security.SecuredServer;
import io.rpcrdma.server.security.SecurityPolicy;
import io.rpcrdma.service.ServiceClientOptions;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * What a hostile or broken RPCSEC_GSS peer sends, over real connections and against a real
 * MIT KDC: forged and truncated context tokens, handles the server never issued or already
 * destroyed, context creation on a procedure other than NULL, and sequence numbers below the
 * window. Each gets its protocol answer and nothing more; no method runs, and the server goes
 * on serving an honest client.
 */
@Tag("conformance")
@ExtendWith(MitKdcExtension.class)
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RpcSecGssHostileInputTest {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	/** The guarded service: the end-to-end test's ledger. */
	private static final int PROGRAM = RpcSecGssEndToEndTest.PROGRAM;

	private static final String SERVICE = "rpcrdma@localhost";

	private final List<AutoCloseable> closeables = new CopyOnWriteArrayList<>();

	private final RpcSecGssEndToEndTest.LedgerService ledger = new RpcSecGssEndToEndTest.LedgerService();

	private SecuredServer secured;

	private RpcSecGssServer rpcsecGss;

	@AfterEach
	void close() throws Exception {
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void forgedAndTruncatedContextTokensGetAGssFailureAndNoContext(String provider, MitKdc kdc) throws Exception {
		start(provider, kdc);
		byte[] forged = new byte[300];
		new Random(7).nextBytes(forged);
		KerberosCredentials login = login(kdc, "gss-mallory");
		byte[] real;
		try (GssSession session = GssSession.initiate(login, SERVICE)) {
			real = session.step(new byte[0]);
		}
		byte[] truncated = java.util.Arrays.copyOf(real, real.length / 2);
		for (byte[] token : List.of(forged, truncated)) {
			ReceivedReply reply = call(0, init(GssProcedure.INIT, new byte[0]), token);
			try {
				XdrDecoder results = reply.results();
				byte[] handle = results.readOpaqueBytes(400);
				int major = results.readInt();
				assertThat(handle).as("no handle for a context that failed").isEmpty();
				assertThat(major).as("GSS major status (RFC 2203 §5.2.3.1)").isNotZero();
			}
			finally {
				reply.release();
			}
		}
		assertThat(this.rpcsecGss.contexts()).isZero();
		assertHonestClientServed(kdc);
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void contextCreationOnAProcedureOtherThanNullIsABadCredential(String provider, MitKdc kdc) throws Exception {
		start(provider, kdc);
		assertThat(refusal(() -> call(1, init(GssProcedure.INIT, new byte[0]), new byte[16])))
			.isEqualTo(AuthStat.AUTH_BADCRED);
		assertThat(this.rpcsecGss.contexts()).isZero();
		assertThat(this.ledger.runs).hasValue(0);
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void handlesTheServerNeverIssuedOrAlreadyDestroyedAreCredentialProblems(String provider, MitKdc kdc)
			throws Exception {
		start(provider, kdc);
		AtomicReference<byte[]> handle = new AtomicReference<>();
		RpcCaller recording = new TamperingCaller(this.secured.clients(), (body) -> new TamperingCaller.Body(body) {
			@Override
			public OpaqueAuth credential() {
				OpaqueAuth credential = super.credential();
				handle.set(GssCredential.of((RawAuth) credential).handle());
				return credential;
			}
		});
		RpcSecGssClient victim = RpcSecGssClient.establish(recording, PROGRAM, 1, login(kdc, "gss-victor"), SERVICE,
				DEADLINE);
		assertThat(proxy(victim).post("once")).isEqualTo("once posted");
		victim.close();
		assertThat(this.rpcsecGss.contexts()).isZero();
		byte[] never = new byte[handle.get().length];
		new Random(11).nextBytes(never);
		for (byte[] stale : List.of(handle.get(), never)) {
			CallBody data = init(GssProcedure.DATA, stale);
			assertThat(refusal(() -> call(1, data, null))).isEqualTo(AuthStat.RPCSEC_GSS_CREDPROBLEM);
		}
		assertThat(this.ledger.runs).hasValue(1);
		assertHonestClientServed(kdc);
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void aSequenceNumberBelowTheWindowIsDiscardedWithoutAReply(String provider, MitKdc kdc) throws Exception {
		start(provider, kdc);
		// The first DATA call is numbered 1000 up, moving the window past the numbers that follow.
		AtomicBoolean first = new AtomicBoolean(true);
		RpcCaller leaping = new TamperingCaller(this.secured.clients(), (body) -> {
			boolean leap = first.getAndSet(false);
			return new TamperingCaller.Body(body) {
				@Override
				public OpaqueAuth credential() {
					OpaqueAuth credential = super.credential();
					if (!leap) {
						return credential;
					}
					GssCredential sent = GssCredential.of((RawAuth) credential);
					return new GssCredential(sent.procedure(), sent.sequence() + 1000, sent.service(), sent.handle())
						.toAuth();
				}
			};
		});
		RpcSecGssClient client = RpcSecGssClient.establish(leaping, PROGRAM, 1, login(kdc, "gss-walter"), SERVICE,
				DEADLINE);
		this.closeables.add(client);
		RpcSecGssEndToEndTest.Ledger ledger = this.secured.proxy(RpcSecGssEndToEndTest.Ledger.class, client, ServiceClientOptions.DEFAULTS.withTimeout(Duration.ofSeconds(2)));
		// The leaping call runs, but its reply answers a number the client never sent, so the
		// client refuses it; what matters here is the window it moved.
		assertThatExceptionOfType(RuntimeException.class).isThrownBy(() -> ledger.post("leap"));
		long dropped = this.secured.server().dispatcher().stats().dropped();
		assertThatExceptionOfType(CallTimeoutException.class).isThrownBy(() -> ledger.post("stale"));
		assertThat(this.secured.server().dispatcher().stats().dropped()).isEqualTo(dropped + 1);
		assertThat(this.ledger.runs).hasValue(1);
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void aContextHandleCreatedOnAnotherConnectionIsACredentialProblemEvenFromTheSameHost(String provider, MitKdc kdc)
			throws Exception {
		start(provider, kdc);
		RpcClientPool other = this.secured.connect(RpcClientPool.Config.of(1, 1));
		// The client's own calls, valid MIC and fresh sequence number, moved to another
		// connection of the same host once the context exists.
		AtomicReference<RpcCaller> route = new AtomicReference<>(this.secured.clients());
		RpcCaller switching = new RpcCaller() {

			@Override
			public CompletableFuture<ReceivedReply> call(int program, int version, int procedure, CallBody arguments,
					CallChunks shape, boolean idempotent, Duration timeout) {
				return route.get().call(program, version, procedure, arguments, shape, idempotent, timeout);
			}

			@Override
			public String endpoint() {
				return route.get().endpoint();
			}

		};
		RpcSecGssClient client = RpcSecGssClient.establish(switching, PROGRAM, 1, login(kdc, "gss-connie"), SERVICE,
				DEADLINE);
		this.closeables.add(client);
		RpcSecGssEndToEndTest.Ledger ledger = proxy(client);
		assertThat(ledger.post("here")).isEqualTo("here posted");
		long refused = this.secured.server().dispatcher().stats().authErrors();
		route.set(other);
		// Refused on the other connection (the method does not run), then a context of its own there.
		assertThat(ledger.post("there")).isEqualTo("there posted");
		assertThat(this.secured.server().dispatcher().stats().authErrors()).as("the handle, refused on another connection")
			.isEqualTo(refused + 1);
		assertThat(this.rpcsecGss.contexts()).as("one context per connection").isEqualTo(2);
		assertThat(this.ledger.runs).hasValue(2);
		other.close();
		awaitContexts(1, "the context of the closed connection forgotten with it");
		assertHonestClientServed(kdc);
	}

	private void awaitContexts(int expected, String what) {
		long deadline = System.nanoTime() + DEADLINE.toNanos();
		while (this.rpcsecGss.contexts() != expected && System.nanoTime() < deadline) {
			java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
		}
		assertThat(this.rpcsecGss.contexts()).as(what).isEqualTo(expected);
	}

	private void assertHonestClientServed(MitKdc kdc) throws Exception {
		RpcSecGssClient honest = RpcSecGssClient.establish(this.secured.clients(), PROGRAM, 1, login(kdc, "gss-olivia"), SERVICE,
				GssService.INTEGRITY, DEADLINE);
		this.closeables.add(honest);
		int before = this.ledger.runs.get();
		assertThat(proxy(honest).post("door")).isEqualTo("door posted");
		assertThat(this.ledger.runs).hasValue(before + 1);
	}

	private static AuthStat refusal(Runnable call) {
		try {
			call.run();
		}
		catch (CompletionException ex) {
			if (ex.getCause() instanceof AuthenticationException refused) {
				return refused.authStat();
			}
			throw ex;
		}
		throw new AssertionError("the call was not refused");
	}

	/** A raw call with an RPCSEC_GSS credential, an opaque argument when {@code token} is set. */
	private ReceivedReply call(int procedure, CallBody credentialOnly, byte[] token) {
		CallBody body = new CallBody() {
			@Override
			public void write(XdrEncoder encoder) {
				if (token != null) {
					encoder.writeOpaque(token);
				}
			}

			@Override
			public OpaqueAuth credential() {
				return credentialOnly.credential();
			}

			@Override
			public OpaqueAuth verifier(ByteBuffer header) {
				return credentialOnly.verifier(header);
			}
		};
		return this.secured.clients().call(PROGRAM, 1, procedure, body, CallChunks.of(8192, 8192), true, DEADLINE).join();
	}

	/** A credential with the given procedure and handle, and for DATA a verifier that is no MIC. */
	private static CallBody init(GssProcedure procedure, byte[] handle) {
		OpaqueAuth credential = new GssCredential(procedure, 5, GssService.NONE, handle).toAuth();
		return new CallBody() {
			@Override
			public void write(XdrEncoder encoder) {
			}

			@Override
			public OpaqueAuth credential() {
				return credential;
			}

			@Override
			public OpaqueAuth verifier(ByteBuffer header) {
				return (procedure == GssProcedure.DATA) ? new RawAuth(AuthFlavor.RPCSEC_GSS, new byte[28])
						: io.rpcrdma.oncrpc.AuthNone.INSTANCE;
			}
		};
	}

	private static KerberosCredentials login(MitKdc kdc, String user) throws Exception {
		return KerberosCredentials.initiatorFromKeytab(MitKdc.qualified(user), kdc.principalWithKeytab(user));
	}

	private RpcSecGssEndToEndTest.Ledger proxy(RpcCaller caller) {
		return this.secured.proxy(RpcSecGssEndToEndTest.Ledger.class, caller, DEADLINE);
	}

	private void start(String providerName, MitKdc kdc) throws Exception {
		this.rpcsecGss = new RpcSecGssServer(KerberosCredentials.acceptorFromKeytab(MitKdc.qualified("rpcrdma/localhost"),
				kdc.principalWithKeytab("rpcrdma/localhost")));
		SecurityPolicy policy = SecurityPolicy.builder()
			.rpcsecGss(this.rpcsecGss)
			.program(PROGRAM, EnumSet.of(SecurityFlavor.KRB5, SecurityFlavor.KRB5I))
			.build();
		this.secured = SecuredServer.start(providerName, policy, this.ledger);
		this.closeables.add(this.secured);
	}

}

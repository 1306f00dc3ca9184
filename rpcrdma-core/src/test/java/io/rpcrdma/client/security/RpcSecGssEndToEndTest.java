package io.rpcrdma.client.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.rpcrdma.client.AuthenticationException;
import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.CallTimeoutException;
import io.rpcrdma.client.RemoteGarbageArgumentsException;
import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.kerberos.MitKdc;
import io.rpcrdma.kerberos.MitKdcExtension;
import io.rpcrdma.oncrpc.AuthStat;
import io.rpcrdma.oncrpc.AuthSys;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.oncrpc.RawAuth;
import io.rpcrdma.oncrpc.gss.GssCredential;
import io.rpcrdma.oncrpc.gss.GssFailureException;
import io.rpcrdma.oncrpc.gss.GssService;
import io.rpcrdma.oncrpc.gss.KerberosCredentials;
import io.rpcrdma.server.security.GssPrincipal;
import io.rpcrdma.server.security.RpcPrincipal;
import io.rpcrdma.server.security.RpcSecGssServer;
import io.rpcrdma.server.security.SecurityFlavor;
import io.rpcrdma.server.security.SecuredServer;
import io.rpcrdma.server.security.SecurityPolicy;
import io.rpcrdma.service.CredentialInterceptor;
import io.rpcrdma.service.RpcClientInterceptor;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;
import io.rpcrdma.service.RpcServerInterceptor;
import io.rpcrdma.service.ServiceClientOptions;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * RPCSEC_GSS with Kerberos V5 (RFC 2203, service {@code krb5}) over real connections
 * (loopback and software iWARP), with tickets from a real MIT KDC: the client creates a
 * context through the NULL procedure, its calls run as its Kerberos principal, calls without
 * it are too weak, and a tampered verifier, a replayed sequence number, a context the server
 * lost and a service the server is not are each handled as RFC 2203 says.
 */
@Tag("conformance")
@ExtendWith(MitKdcExtension.class)
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RpcSecGssEndToEndTest {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	static final int PROGRAM = 0x20000c11;

	private static final String SERVICE = "rpcrdma@localhost";

	/** The guarded service. */
	@RpcProgram(number = PROGRAM, version = 1)
	public interface Ledger {

		@RpcProcedure(1)
		String post(String entry);

		@RpcProcedure(2)
		byte[] echo(byte[] data);

	}

	static final class LedgerService implements Ledger {

		final AtomicInteger runs = new AtomicInteger();

		@Override
		public String post(String entry) {
			this.runs.incrementAndGet();
			return entry + " posted";
		}

		@Override
		public byte[] echo(byte[] data) {
			this.runs.incrementAndGet();
			return data;
		}

	}

	private final List<AutoCloseable> closeables = new CopyOnWriteArrayList<>();

	private final LedgerService ledger = new LedgerService();

	private final List<RpcPrincipal> principals = new CopyOnWriteArrayList<>();

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
	void aKerberosCallRunsAsItsPrincipalAndOtherFlavorsAreTooWeak(String provider, MitKdc kdc) throws Exception {
		start(provider, kdc, RpcSecGssServer.DEFAULT_MAX_CONTEXTS);
		RpcSecGssClient alice = gssClient(kdc, "gss-alice", this.secured.clients());
		assertThat(alice.window()).isEqualTo(RpcSecGssServer.DEFAULT_WINDOW);
		Ledger asAlice = proxy(alice);
		assertThat(asAlice.post("rent")).isEqualTo("rent posted");
		assertThat(asAlice.post("food")).isEqualTo("food posted");
		assertThat(this.principals).hasSize(2).allSatisfy((principal) -> {
			assertThat(principal).isInstanceOf(GssPrincipal.class);
			assertThat(principal.getName()).isEqualTo(MitKdc.qualified("gss-alice"));
			assertThat(principal.verified()).isTrue();
			assertThat(principal.flavor()).isEqualTo(SecurityFlavor.KRB5);
		});
		for (Ledger weak : List.of(proxy(this.secured.clients()), proxy(this.secured.clients(),
				CredentialInterceptor.authSys(AuthSys.of("build-host", 0, 0))))) {
			assertThatExceptionOfType(AuthenticationException.class).isThrownBy(() -> weak.post("forged"))
				.satisfies((ex) -> assertThat(ex.authStat()).isEqualTo(AuthStat.AUTH_TOOWEAK));
		}
		assertThat(this.ledger.runs).hasValue(2);
		assertThat(this.rpcsecGss.contexts()).isEqualTo(1);
		// RFC 2203 §5.4: closing the client destroys its context on the server.
		alice.close();
		assertThat(this.rpcsecGss.contexts()).isZero();
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> asAlice.post("late"))
			.withMessageContaining("closed");
	}

	/**
	 * A client whose tickets live 12 s: once they have ended, its next call still succeeds.
	 * The context ended with its service ticket (the server would answer
	 * RPCSEC_GSS_CTXPROBLEM, RFC 2203 §5.3.3.3), so the client makes a new one, and since the
	 * ticket-granting ticket ended too it logs in again from its keytab first.
	 */
	@Test
	void aClientWhoseTicketsEndLogsInAgainFromItsKeytabAndNoCallFails(MitKdc kdc) throws Exception {
		start("loopback", kdc, RpcSecGssServer.DEFAULT_MAX_CONTEXTS);
		KerberosCredentials login = KerberosCredentials.initiatorFromKeytab(MitKdc.qualified("gss-brief"),
				kdc.principalWithKeytab("gss-brief", Duration.ofSeconds(12)));
		Instant end = login.ticketGrantingTicketEnd().orElseThrow();
		assertThat(Duration.between(Instant.now(), end)).as("the KDC's grant").isLessThanOrEqualTo(Duration.ofSeconds(13));
		RpcSecGssClient client = RpcSecGssClient.establish(this.secured.clients(), PROGRAM, 1, login, SERVICE,
				GssService.NONE, DEADLINE);
		this.closeables.add(client);
		Ledger ledger = proxy(client);
		assertThat(ledger.post("before")).isEqualTo("before posted");
		// Wait for the KDC's clock, not for a guess: the test proceeds once the tickets ended.
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (!Instant.now().isAfter(end) && System.nanoTime() < deadline) {
			Thread.sleep(Math.max(1, Math.min(200, Duration.between(Instant.now(), end).toMillis())));
		}
		assertThat(Instant.now()).isAfter(end);
		assertThat(ledger.post("after")).isEqualTo("after posted");
		assertThat(login.logins()).as("logins: the first and one renewal").isEqualTo(2);
		assertThat(login.ticketGrantingTicketEnd().orElseThrow()).isAfter(end);
		assertThat(this.ledger.runs).hasValue(2);
		assertThat(this.principals).hasSize(2)
			.allSatisfy((principal) -> assertThat(principal.getName()).isEqualTo(MitKdc.qualified("gss-brief")));
		// RFC 2203 §5.4: the ended context is destroyed once replaced, so the server holds only
		// the new one (it was kept until idle, counting against the client's shares).
		long destroyDeadline = System.nanoTime() + RpcSecGssClient.DESTROY_WAIT.multipliedBy(5).toNanos();
		while (this.rpcsecGss.contexts() > 1 && System.nanoTime() < destroyDeadline) {
			Thread.sleep(10);
		}
		assertThat(this.rpcsecGss.contexts()).as("contexts the server holds after the renewal").isEqualTo(1);
	}

	@ParameterizedTest
	@CsvSource({ "loopback, INTEGRITY", "loopback, PRIVACY", "siw, INTEGRITY", "siw, PRIVACY" })
	void protectedBodiesCarryBulkDataBothWaysAndRunAsTheirFlavor(String provider, GssService protection, MitKdc kdc)
			throws Exception {
		start(provider, kdc, RpcSecGssServer.DEFAULT_MAX_CONTEXTS);
		// 256 KiB each way: far beyond the inline threshold, so a long call and a Reply chunk.
		byte[] data = new byte[256 * 1024];
		new Random(42).nextBytes(data);
		byte[] marker = "plain text the wire must not show".getBytes(StandardCharsets.US_ASCII);
		System.arraycopy(marker, 0, data, 1000, marker.length);
		Capturing capturing = new Capturing();
		RpcSecGssClient client = gssClient(kdc, "gss-henry", new TamperingCaller(this.secured.clients(), capturing), protection);
		Ledger bulk = this.secured.proxy(Ledger.class, client, ServiceClientOptions.DEFAULTS.withTimeout(DEADLINE).withMaxReplySize(1024 * 1024));
		assertThat(bulk.echo(data)).isEqualTo(data);
		SecurityFlavor flavor = (protection == GssService.INTEGRITY) ? SecurityFlavor.KRB5I : SecurityFlavor.KRB5P;
		assertThat(this.principals).singleElement().satisfies((principal) -> {
			assertThat(principal.getName()).isEqualTo(MitKdc.qualified("gss-henry"));
			assertThat(principal.flavor()).isEqualTo(flavor);
		});
		// RFC 2203 §5.3.2.3: privacy encrypts the body; integrity only signs it.
		assertThat(indexOf(capturing.sent, marker) >= 0).as("the marker in the body sent")
			.isEqualTo(protection == GssService.INTEGRITY);
	}

	@ParameterizedTest
	@CsvSource({ "loopback, INTEGRITY", "loopback, PRIVACY", "siw, INTEGRITY", "siw, PRIVACY" })
	void aProtectedBodyChangedOnTheWayIsGarbageAndNothingRuns(String provider, GssService protection, MitKdc kdc)
			throws Exception {
		start(provider, kdc, RpcSecGssServer.DEFAULT_MAX_CONTEXTS);
		RpcCaller flipping = new TamperingCaller(this.secured.clients(), (body) -> new TamperingCaller.Body(body) {
			@Override
			public void write(XdrEncoder encoder) {
				super.write(encoder);
				// The last byte of the MIC (integrity) or of the wrap token (privacy).
				ByteBuffer written = encoder.buffer();
				int last = encoder.position() - 1;
				while (written.get(last) == 0) {
					last--;
				}
				written.put(last, (byte) (written.get(last) ^ 1));
			}
		});
		Ledger tampered = proxy(gssClient(kdc, "gss-ida", flipping, protection));
		assertThatExceptionOfType(RemoteGarbageArgumentsException.class).isThrownBy(() -> tampered.echo(new byte[64]));
		assertThat(this.ledger.runs).hasValue(0);
		assertThat(this.secured.server().dispatcher().stats().garbageArgs()).isEqualTo(1);
		// The server keeps serving, the same client with an untouched body too.
		Ledger honest = proxy(gssClient(kdc, "gss-ida", this.secured.clients(), protection));
		assertThat(honest.echo(new byte[] { 1, 2, 3 })).containsExactly(1, 2, 3);
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void aProcedureThatWantsItsBodyProtectedFindsPlainKrb5TooWeak(String provider, MitKdc kdc) throws Exception {
		start(provider, kdc, RpcSecGssServer.DEFAULT_MAX_CONTEXTS);
		Ledger plain = proxy(gssClient(kdc, "gss-jack", this.secured.clients()));
		assertThatExceptionOfType(AuthenticationException.class).isThrownBy(() -> plain.echo(new byte[8]))
			.satisfies((ex) -> assertThat(ex.authStat()).isEqualTo(AuthStat.AUTH_TOOWEAK));
		assertThat(plain.post("fine")).isEqualTo("fine posted");
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void aClientMadeBeforeItsFirstCallCreatesOneContextForTheCallsThatComeAtOnce(String provider, MitKdc kdc)
			throws Exception {
		start(provider, kdc, RpcSecGssServer.DEFAULT_MAX_CONTEXTS);
		KerberosCredentials login = KerberosCredentials.initiatorFromKeytab(MitKdc.qualified("gss-grace"),
				kdc.principalWithKeytab("gss-grace"));
		RpcSecGssClient grace = RpcSecGssClient.onFirstCall(this.secured.clients(), login, SERVICE, DEADLINE);
		this.closeables.add(grace);
		assertThat(grace.window()).isZero();
		assertThat(this.rpcsecGss.contexts()).isZero();
		Ledger asGrace = proxy(grace);
		List<CompletableFuture<String>> posts = new java.util.ArrayList<>();
		for (int i = 0; i < 4; i++) {
			String entry = "entry " + i;
			posts.add(CompletableFuture.supplyAsync(() -> asGrace.post(entry)));
		}
		for (int i = 0; i < 4; i++) {
			assertThat(posts.get(i).get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("entry " + i + " posted");
		}
		assertThat(this.rpcsecGss.contexts()).isEqualTo(1);
		assertThat(grace.window()).isEqualTo(RpcSecGssServer.DEFAULT_WINDOW);
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void aContextTheServerLostIsCreatedAgainWithoutFailingTheCall(String provider, MitKdc kdc) throws Exception {
		// Room for one context, none kept when another client needs room.
		start(provider, kdc, 1);
		RpcSecGssClient alice = gssClient(kdc, "gss-alice", this.secured.clients());
		assertThat(proxy(alice).post("one")).isEqualTo("one posted");
		RpcSecGssClient bob = gssClient(kdc, "gss-bob", this.secured.clients());
		assertThat(proxy(bob).post("two")).isEqualTo("two posted");
		// Bob's context pushed Alice's out: her next call is refused, renews, and runs once.
		assertThat(proxy(alice).post("three")).isEqualTo("three posted");
		assertThat(this.ledger.runs).hasValue(3);
		assertThat(this.principals).extracting(RpcPrincipal::getName)
			.containsExactly(MitKdc.qualified("gss-alice"), MitKdc.qualified("gss-bob"), MitKdc.qualified("gss-alice"));
		assertThat(this.secured.server().dispatcher().stats().authErrors()).isEqualTo(1);
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void aTamperedVerifierIsACredentialProblemAndNothingRuns(String provider, MitKdc kdc) throws Exception {
		start(provider, kdc, RpcSecGssServer.DEFAULT_MAX_CONTEXTS);
		RpcCaller tampering = new TamperingCaller(this.secured.clients(), (body) -> new TamperingCaller.Body(body) {
			@Override
			public OpaqueAuth verifier(ByteBuffer header) {
				RawAuth mic = (RawAuth) super.verifier(header);
				byte[] bytes = mic.body();
				bytes[bytes.length - 1] ^= 1;
				return new RawAuth(mic.flavor(), bytes);
			}
		});
		RpcSecGssClient carol = gssClient(kdc, "gss-carol", tampering);
		assertThatExceptionOfType(AuthenticationException.class).isThrownBy(() -> proxy(carol).post("forged"))
			.satisfies((ex) -> assertThat(ex.authStat()).isEqualTo(AuthStat.RPCSEC_GSS_CREDPROBLEM));
		assertThat(this.ledger.runs).hasValue(0);
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void aReplyWhoseVerifierAnswersAnotherSequenceNumberIsRefused(String provider, MitKdc kdc) throws Exception {
		start(provider, kdc, RpcSecGssServer.DEFAULT_MAX_CONTEXTS);
		// The call goes out numbered 1000 past what the client recorded, so the server's MIC
		// (RFC 2203 §5.3.3.2) is over a number the client never sent.
		RpcCaller renumbering = new TamperingCaller(this.secured.clients(), (body) -> new TamperingCaller.Body(body) {
			@Override
			public OpaqueAuth credential() {
				GssCredential sent = GssCredential.of((RawAuth) super.credential());
				return new GssCredential(sent.procedure(), sent.sequence() + 1000, sent.service(), sent.handle()).toAuth();
			}
		});
		Ledger asFrank = proxy(gssClient(kdc, "gss-frank", renumbering));
		assertThatExceptionOfType(GssFailureException.class).isThrownBy(() -> asFrank.post("misnumbered"))
			.withMessageContaining("does not carry the RPCSEC_GSS verifier of " + SERVICE);
		assertThat(this.ledger.runs).as("the server ran it; the client cannot trust the reply").hasValue(1);
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void aReplayedSequenceNumberIsDiscardedWithoutAReply(String provider, MitKdc kdc) throws Exception {
		start(provider, kdc, RpcSecGssServer.DEFAULT_MAX_CONTEXTS);
		// Every DATA call carries the credential and verifier of the first one seen.
		Replaying replaying = new Replaying();
		RpcSecGssClient dave = gssClient(kdc, "gss-dave", new TamperingCaller(this.secured.clients(), replaying));
		Ledger asDave = this.secured.proxy(Ledger.class, dave, ServiceClientOptions.DEFAULTS.withTimeout(Duration.ofSeconds(2)));
		assertThat(asDave.post("once")).isEqualTo("once posted");
		long dropped = this.secured.server().dispatcher().stats().dropped();
		// RFC 2203 §5.3.3.1: a duplicate gets no reply, so the caller's deadline passes.
		assertThatExceptionOfType(CallTimeoutException.class).isThrownBy(() -> asDave.post("twice"));
		assertThat(this.ledger.runs).hasValue(1);
		assertThat(this.secured.server().dispatcher().stats().dropped()).isEqualTo(dropped + 1);
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void aServiceTheServerIsNotFailsContextCreationSayingWhatToCheck(String provider, MitKdc kdc) throws Exception {
		start(provider, kdc, RpcSecGssServer.DEFAULT_MAX_CONTEXTS);
		kdc.principalWithKeytab("rpcrdma/elsewhere");
		KerberosCredentials erin = KerberosCredentials.initiatorFromKeytab(MitKdc.qualified("gss-erin"),
				kdc.principalWithKeytab("gss-erin"));
		assertThatExceptionOfType(GssFailureException.class)
			.isThrownBy(() -> RpcSecGssClient.establish(this.secured.clients(), PROGRAM, 1, erin, "rpcrdma@elsewhere", DEADLINE))
			.withMessageContaining("refused the RPCSEC_GSS context of " + MitKdc.qualified("gss-erin"))
			.withMessageContaining("keytab");
		assertThat(this.rpcsecGss.contexts()).isZero();
		assertThat(this.principals).isEmpty();
	}

	/** A service whose calls wait for each other: two calls pass only together. */
	@RpcProgram(number = PROGRAM + 1, version = 1)
	public interface Gate {

		@RpcProcedure(1)
		String pass(String who);

	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void aPoolOfSeveralConnectionsProtectsEachWithAContextOfItsOwnAndDestroysThemWhenItCloses(String provider,
			MitKdc kdc) throws Exception {
		RpcSecGssServer acceptor = new RpcSecGssServer(KerberosCredentials.acceptorFromKeytab(
				MitKdc.qualified("rpcrdma/localhost"), kdc.principalWithKeytab("rpcrdma/localhost")));
		java.util.concurrent.CyclicBarrier both = new java.util.concurrent.CyclicBarrier(2);
		Gate gate = (who) -> {
			try {
				both.await(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			}
			catch (Exception ex) {
				throw new IllegalStateException("the other call never came", ex);
			}
			return who + " passed";
		};
		SecuredServer server = SecuredServer.start(provider,
				SecurityPolicy.builder().rpcsecGss(acceptor).byDefault(EnumSet.of(SecurityFlavor.KRB5I)).build(), gate);
		this.closeables.add(server);
		KerberosCredentials login = KerberosCredentials.initiatorFromKeytab(MitKdc.qualified("gss-paula"),
				kdc.principalWithKeytab("gss-paula"));
		RpcClientPool two = server.connect(RpcClientPool.Config.of(2, 2));
		// One context over a pool that may use either connection would be refused on the other.
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RpcSecGssClient.onFirstCall(two, login, SERVICE, GssService.INTEGRITY, DEADLINE))
			.withMessageContaining("protectConnections");
		two.protectConnections(
				(connection) -> RpcSecGssClient.onFirstCall(connection, login, SERVICE, GssService.INTEGRITY, DEADLINE));
		long deadline = System.nanoTime() + DEADLINE.toNanos();
		while (two.connections().size() < 2 && System.nanoTime() < deadline) {
			java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
		}
		assertThat(two.connections()).hasSize(2);
		Gate through = server.proxy(Gate.class, two, DEADLINE);
		// The first call holds its connection until the second arrives, so the second takes the other.
		java.util.concurrent.ExecutorService callers = java.util.concurrent.Executors.newFixedThreadPool(2);
		try {
			CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> through.pass("first"), callers);
			CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> through.pass("second"), callers);
			assertThat(first.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("first passed");
			assertThat(second.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("second passed");
		}
		finally {
			callers.shutdownNow();
		}
		assertThat(server.server().dispatcher().stats().authErrors()).as("no handle crossed connections").isZero();
		assertThat(acceptor.contexts()).as("a context per connection").isEqualTo(2);
		two.close();
		assertThat(acceptor.contexts()).as("each destroyed over its connection before it closed").isZero();
	}

	private void start(String providerName, MitKdc kdc, int maxContexts) throws Exception {
		this.rpcsecGss = new RpcSecGssServer(KerberosCredentials.acceptorFromKeytab(MitKdc.qualified("rpcrdma/localhost"),
				kdc.principalWithKeytab("rpcrdma/localhost")), RpcSecGssServer.DEFAULT_WINDOW, maxContexts, Duration.ZERO);
		// Kerberos for every procedure, and integrity or privacy for echo.
		SecurityPolicy policy = SecurityPolicy.builder()
			.rpcsecGss(this.rpcsecGss)
			.program(PROGRAM, EnumSet.of(SecurityFlavor.KRB5, SecurityFlavor.KRB5I, SecurityFlavor.KRB5P))
			.procedure(PROGRAM, 1, 2, EnumSet.of(SecurityFlavor.KRB5I, SecurityFlavor.KRB5P))
			.build();
		RpcServerInterceptor recorder = (invocation) -> {
			this.principals.add(invocation.principal());
			return invocation.proceed();
		};
		this.secured = SecuredServer.start(providerName, policy, this.ledger, recorder);
		this.closeables.add(this.secured);
	}

	private RpcSecGssClient gssClient(MitKdc kdc, String user, RpcCaller over) throws Exception {
		return gssClient(kdc, user, over, GssService.NONE);
	}

	private RpcSecGssClient gssClient(MitKdc kdc, String user, RpcCaller over, GssService protection) throws Exception {
		KerberosCredentials login = KerberosCredentials.initiatorFromKeytab(MitKdc.qualified(user),
				kdc.principalWithKeytab(user));
		RpcSecGssClient client = RpcSecGssClient.establish(over, PROGRAM, 1, login, SERVICE, protection, DEADLINE);
		this.closeables.add(client);
		return client;
	}

	private Ledger proxy(RpcCaller caller, RpcClientInterceptor... interceptors) {
		return this.secured.proxy(Ledger.class, caller, DEADLINE, interceptors);
	}

	/** Keeps what the body of the last DATA call wrote. */
	private static final class Capturing implements UnaryOperator<CallBody> {

		private volatile byte[] sent = new byte[0];

		@Override
		public CallBody apply(CallBody body) {
			return new TamperingCaller.Body(body) {
				@Override
				public void write(XdrEncoder encoder) {
					int start = encoder.position();
					super.write(encoder);
					byte[] bytes = new byte[encoder.position() - start];
					encoder.buffer().get(start, bytes);
					Capturing.this.sent = bytes;
				}
			};
		}

	}

	private static int indexOf(byte[] haystack, byte[] needle) {
		for (int i = 0; i + needle.length <= haystack.length; i++) {
			if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
				return i;
			}
		}
		return -1;
	}

	/**
	 * Sends every DATA call with the first one's credential, so its sequence number, and a
	 * verifier that is a good MIC over the header sent: what only a replay of a whole call, or
	 * a client reusing a number, looks like to the server.
	 */
	private static final class Replaying implements UnaryOperator<CallBody> {

		private volatile OpaqueAuth first;

		@Override
		public CallBody apply(CallBody body) {
			return new TamperingCaller.Body(body) {

				@Override
				public OpaqueAuth credential() {
					OpaqueAuth fresh = super.credential();
					if (Replaying.this.first == null) {
						Replaying.this.first = fresh;
					}
					return Replaying.this.first;
				}

			};
		}

	}

}

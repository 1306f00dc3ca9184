package io.rpcrdma.client.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.CallChunks;
import io.rpcrdma.client.ReceivedReply;
import io.rpcrdma.client.RemoteSystemErrorException;
import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.kerberos.MitKdc;
import io.rpcrdma.kerberos.MitKdcExtension;
import io.rpcrdma.oncrpc.AuthNone;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.oncrpc.gss.GssCredential;
import io.rpcrdma.oncrpc.gss.GssProcedure;
import io.rpcrdma.oncrpc.gss.GssService;
import io.rpcrdma.oncrpc.gss.GssSession;
import io.rpcrdma.oncrpc.gss.KerberosCredentials;
import io.rpcrdma.server.security.GssContextLimits;
import io.rpcrdma.server.security.RpcSecGssServer;
import io.rpcrdma.server.security.SecuredServer;
import io.rpcrdma.server.security.SecurityFlavor;
import io.rpcrdma.server.security.SecurityPolicy;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * A principal of the realm that floods the server with RPCSEC_GSS_INITs over real connections
 * (loopback and software iWARP), each with a real AP-REQ from a real MIT KDC: it gets the
 * contexts its connections' and its principal's shares allow and SYSTEM_ERR for the rest, all
 * at once or one by one; honest clients still create contexts and their calls run, and none of
 * their contexts gives way to the flooder's; a client refused for want of room is told so, not
 * sent to check the keytab; and every context of the flooder goes with its connections.
 */
@Tag("conformance")
@ExtendWith(MitKdcExtension.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RpcSecGssContextFloodTest {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

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
	void aFlooderGetsItsSharesAndSystemErrBeyondThemWhileHonestClientsAreServed(String provider, MitKdc kdc)
			throws Exception {
		start(provider, kdc, GssContextLimits.DEFAULTS.withMaxContexts(16).withMaxPerConnection(3).withMaxPerPrincipal(5));
		KerberosCredentials mallory = login(kdc, "gss-flood-mallory");
		RpcClientPool first = this.secured.connect(RpcClientPool.Config.of(1, 1));
		RpcClientPool second = this.secured.connect(RpcClientPool.Config.of(1, 1));
		RpcClientPool third = this.secured.connect(RpcClientPool.Config.of(1, 1));
		// One by one on one connection: its share, then SYSTEM_ERR.
		for (int i = 0; i < 3; i++) {
			assertThat(outcome(init(first, apReq(mallory)))).as("INIT " + i).isEqualTo("created");
		}
		assertThat(outcome(init(first, apReq(mallory)))).as("past the connection's share").isEqualTo("refused");
		// Then all at once: twelve INITs over two more connections, racing for the principal's
		// last two slots.
		List<byte[]> tokens = new ArrayList<>();
		for (int i = 0; i < 12; i++) {
			tokens.add(apReq(mallory));
		}
		List<CompletableFuture<ReceivedReply>> flood = new ArrayList<>();
		for (int i = 0; i < 12; i++) {
			flood.add(init((i % 2 == 0) ? second : third, tokens.get(i)));
		}
		int created = 0;
		int refused = 0;
		for (CompletableFuture<ReceivedReply> reply : flood) {
			if (outcome(reply).equals("created")) {
				created++;
			}
			else {
				refused++;
			}
		}
		assertThat(created).as("the principal's share: five, three of them on the first connection").isEqualTo(2);
		assertThat(refused).isEqualTo(10);
		assertThat(this.rpcsecGss.contexts()).isEqualTo(5);
		assertThat(this.rpcsecGss.refusedContexts()).isEqualTo(11);
		// The flooder's own client is told what happened.
		assertThatExceptionOfType(GssContextUnavailableException.class)
			.isThrownBy(() -> RpcSecGssClient.establish(first, PROGRAM, 1, mallory, SERVICE, DEADLINE))
			.satisfies((ex) -> assertThat(ex.notExecuted()).isTrue())
			.withMessageContaining("could not take a new RPCSEC_GSS context of " + MitKdc.qualified("gss-flood-mallory"))
			.withMessageContaining("rpcrdma.server.security.kerberos.contexts");

		assertHonestClientServed(kdc, "gss-flood-alice", "alice");
		assertHonestClientServed(kdc, "gss-flood-bob", "bob");
		assertThat(this.rpcsecGss.contexts()).isEqualTo(7);

		first.close();
		second.close();
		third.close();
		awaitContexts(2, "the flooder's contexts, gone with its connections");
		assertHonestClientServed(kdc, "gss-flood-carol", "carol");
		assertThat(this.ledger.runs).hasValue(3);
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void whenTheTableIsFullTheFloodersOwnContextsGiveWayAndNeverAClientsOne(String provider, MitKdc kdc)
			throws Exception {
		// Room for four, and every context counts as idle: a plain least-recently-used table
		// would hand the flooder the honest client's context, the oldest.
		start(provider, kdc, GssContextLimits.DEFAULTS.withMaxContexts(4)
			.withMaxPerConnection(4)
			.withMaxPerPrincipal(4)
			.withIdleLimit(Duration.ZERO));
		RpcSecGssEndToEndTest.Ledger alice = honestClient(kdc, "gss-flood-alice");
		assertThat(alice.post("one")).isEqualTo("one posted");
		KerberosCredentials mallory = login(kdc, "gss-flood-mallory");
		RpcClientPool flooder = this.secured.connect(RpcClientPool.Config.of(1, 1));
		for (int i = 0; i < 8; i++) {
			ReceivedReply reply = init(flooder, apReq(mallory)).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			try {
				XdrDecoder results = reply.results();
				results.readOpaqueBytes(400);
				assertThat(results.readInt()).as("GSS_S_COMPLETE, in place of one of its own").isZero();
			}
			finally {
				reply.release();
			}
		}
		assertThat(this.rpcsecGss.contexts()).isEqualTo(4);
		long authErrors = this.secured.server().dispatcher().stats().authErrors();

		assertThat(alice.post("two")).isEqualTo("two posted");
		RpcSecGssEndToEndTest.Ledger bob = honestClient(kdc, "gss-flood-bob");
		assertThat(bob.post("three")).isEqualTo("three posted");
		assertThat(alice.post("four")).isEqualTo("four posted");

		assertThat(this.secured.server().dispatcher().stats().authErrors())
			.as("no honest call met RPCSEC_GSS_CREDPROBLEM: no honest context gave way").isEqualTo(authErrors);
		assertThat(this.rpcsecGss.contexts()).isEqualTo(4);
		assertThat(this.ledger.runs).hasValue(4);
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void aClientRefusedForWantOfRoomIsToldSoAndNotSentToCheckTheKeytab(String provider, MitKdc kdc) throws Exception {
		start(provider, kdc, GssContextLimits.DEFAULTS.withMaxContexts(2));
		assertHonestClientServed(kdc, "gss-flood-alice", "alice");
		assertHonestClientServed(kdc, "gss-flood-bob", "bob");
		KerberosCredentials carol = login(kdc, "gss-flood-carol");

		assertThatExceptionOfType(GssContextUnavailableException.class)
			.isThrownBy(() -> RpcSecGssClient.establish(this.secured.clients(), PROGRAM, 1, carol, SERVICE, DEADLINE))
			.withMessageContaining("could not take a new RPCSEC_GSS context")
			.withMessageContaining("the credentials and the server's keytab are not in question")
			.withMessageNotContaining("check that the server's keytab");
		assertThat(this.rpcsecGss.contexts()).isEqualTo(2);
		assertThat(this.rpcsecGss.refusedContexts()).isEqualTo(1);
	}

	private void assertHonestClientServed(MitKdc kdc, String user, String entry) throws Exception {
		assertThat(honestClient(kdc, user).post(entry)).isEqualTo(entry + " posted");
	}

	/** A client of its own principal, with its own context over the secured server's connection. */
	private RpcSecGssEndToEndTest.Ledger honestClient(MitKdc kdc, String user) throws Exception {
		RpcSecGssClient client = RpcSecGssClient.establish(this.secured.clients(), PROGRAM, 1, login(kdc, user), SERVICE,
				DEADLINE);
		this.closeables.add(client);
		return this.secured.proxy(RpcSecGssEndToEndTest.Ledger.class, client, DEADLINE);
	}

	/** "created" for GSS_S_COMPLETE with a handle, "refused" for SYSTEM_ERR; anything else fails. */
	private static String outcome(CompletableFuture<ReceivedReply> reply) throws Exception {
		ReceivedReply received;
		try {
			received = reply.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
		}
		catch (ExecutionException ex) {
			assertThat(ex.getCause()).as("the refusal").isInstanceOf(RemoteSystemErrorException.class);
			return "refused";
		}
		try {
			XdrDecoder results = received.results();
			assertThat(results.readOpaqueBytes(400)).as("a handle").isNotEmpty();
			assertThat(results.readInt()).as("GSS_S_COMPLETE").isZero();
			return "created";
		}
		finally {
			received.release();
		}
	}

	private void awaitContexts(int expected, String what) {
		// The server learns of a closed connection from its provider, after close() returns.
		long deadline = System.nanoTime() + DEADLINE.toNanos();
		while (this.rpcsecGss.contexts() != expected && System.nanoTime() < deadline) {
			LockSupport.parkNanos(1_000_000);
		}
		assertThat(this.rpcsecGss.contexts()).as(what).isEqualTo(expected);
	}

	/** A fresh AP-REQ from the user for the service: a real INIT token, used once. */
	private static byte[] apReq(KerberosCredentials login) {
		try (GssSession session = GssSession.initiate(login, SERVICE)) {
			return session.step(new byte[0]);
		}
	}

	/** RPCSEC_GSS_INIT on NULL with the token, as a flooder sends it: never followed by a call. */
	private static CompletableFuture<ReceivedReply> init(RpcCaller over, byte[] token) {
		OpaqueAuth credential = new GssCredential(GssProcedure.INIT, 0, GssService.NONE, new byte[0]).toAuth();
		CallBody body = new CallBody() {
			@Override
			public void write(XdrEncoder encoder) {
				encoder.writeOpaque(token);
			}

			@Override
			public OpaqueAuth credential() {
				return credential;
			}

			@Override
			public OpaqueAuth verifier(ByteBuffer header) {
				return AuthNone.INSTANCE;
			}
		};
		return over.call(PROGRAM, 1, 0, body, CallChunks.of(8192, 8192), true, DEADLINE);
	}

	private static KerberosCredentials login(MitKdc kdc, String user) throws Exception {
		return KerberosCredentials.initiatorFromKeytab(MitKdc.qualified(user), kdc.principalWithKeytab(user));
	}

	private void start(String providerName, MitKdc kdc, GssContextLimits limits) throws Exception {
		this.rpcsecGss = new RpcSecGssServer(KerberosCredentials.acceptorFromKeytab(MitKdc.qualified("rpcrdma/localhost"),
				kdc.principalWithKeytab("rpcrdma/localhost")), RpcSecGssServer.DEFAULT_WINDOW, limits);
		SecurityPolicy policy = SecurityPolicy.builder()
			.rpcsecGss(this.rpcsecGss)
			.program(PROGRAM, EnumSet.of(SecurityFlavor.KRB5))
			.build();
		this.secured = SecuredServer.start(providerName, policy, this.ledger);
		this.closeables.add(this.secured);
	}

}

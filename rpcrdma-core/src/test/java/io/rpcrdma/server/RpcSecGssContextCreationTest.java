package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rpcrdma.kerberos.MitKdc;
import io.rpcrdma.kerberos.MitKdcExtension;
import io.rpcrdma.oncrpc.AcceptStatus;
import io.rpcrdma.oncrpc.AcceptedReply;
import io.rpcrdma.oncrpc.AuthFlavor;
import io.rpcrdma.oncrpc.AuthNone;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.oncrpc.RawAuth;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.oncrpc.gss.GssCredential;
import io.rpcrdma.oncrpc.gss.GssProcedure;
import io.rpcrdma.oncrpc.gss.GssService;
import io.rpcrdma.oncrpc.gss.GssSession;
import io.rpcrdma.oncrpc.gss.KerberosCredentials;
import io.rpcrdma.server.security.GssContextLimits;
import io.rpcrdma.server.security.RpcSecGssServer;
import io.rpcrdma.server.security.SecurityPolicy;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * A hostile peer's RPCSEC_GSS_INITs against the server's context limits, through the dispatcher
 * with real Kerberos contexts from a real MIT KDC: INITs whose step waits for the server's
 * executor are contexts in creation (RFC 2203 §5.2.2), counted against their connection, and
 * forgotten when the creation timeout passes on the server's clock (injected here) or when
 * their connection closes; one past the connection's share is answered SYSTEM_ERR at once,
 * without any Kerberos work; an honest client on another connection creates its context and
 * its DATA calls run meanwhile; and concurrent INITs take exactly the shares the limits allow.
 */
@Tag("conformance")
@ExtendWith(MitKdcExtension.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RpcSecGssContextCreationTest {

	private static final int PROGRAM = 100_097;

	private static final String SERVICE = "rpcrdma@localhost";

	private static final GssContextLimits LIMITS = GssContextLimits.DEFAULTS.withMaxContexts(16)
		.withMaxPerConnection(3)
		.withMaxPerPrincipal(5)
		.withCreationTimeout(Duration.ofSeconds(30));

	private final AtomicLong clock = new AtomicLong(1_000_000_000L);

	private final AtomicInteger runs = new AtomicInteger();

	private final AtomicInteger xids = new AtomicInteger(0x2000_0000);

	private final ExecutorService threads = Executors.newFixedThreadPool(8);

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@Test
	void initsWaitingForTheExecutorAreContextsInCreationThatExpireWhileAnHonestClientIsServed(MitKdc kdc)
			throws Exception {
		RpcSecGssServer rpcsecGss = rpcsecGss(kdc, LIMITS);
		GatedExecutor executor = new GatedExecutor();
		RpcDispatcher dispatcher = dispatcher(executor, rpcsecGss);
		Peer mallory = new Peer("mallory-connection");
		KerberosCredentials malloryLogin = login(kdc, "gss-creation-mallory");

		List<CompletableFuture<DispatchOutcome>> waiting = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			waiting.add(dispatcher.dispatch(init(apReq(malloryLogin)), "mallory-host", mallory.capturing, mallory));
		}
		assertThat(executor.held()).as("Kerberos steps waiting for the executor").isEqualTo(3);
		assertThat(rpcsecGss.contexts()).as("contexts in creation").isEqualTo(3);
		assertThat(waiting).noneMatch(CompletableFuture::isDone);

		DispatchOutcome over = dispatcher.dispatch(init(apReq(malloryLogin)), "mallory-host", mallory.capturing, mallory)
			.get(10, TimeUnit.SECONDS);
		assertThat(over).isEqualTo(DispatchOutcome.REPLIED);
		assertThat(status(mallory.capturing.nextReply())).as("past the connection's share")
			.isInstanceOf(AcceptStatus.SystemErr.class);
		assertThat(executor.held()).as("the refused INIT cost no Kerberos step").isEqualTo(3);

		executor.open();
		Client alice = Client.establish(kdc, "gss-creation-alice", dispatcher, new Peer("alice-connection"), this.xids);
		assertThat(alice.call(dispatcher, 21)).isEqualTo(210 + 1);
		assertThat(rpcsecGss.contexts()).isEqualTo(4);

		this.clock.addAndGet(Duration.ofSeconds(30).toNanos());
		assertThat(rpcsecGss.contexts()).as("the contexts in creation, forgotten after the creation timeout")
			.isEqualTo(1);
		executor.runHeld();
		for (CompletableFuture<DispatchOutcome> step : waiting) {
			assertThat(step.get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
			assertThat(status(mallory.capturing.nextReply())).as("a step taken after its context was forgotten")
				.isInstanceOf(AcceptStatus.SystemErr.class);
		}
		assertThat(rpcsecGss.contexts()).as("none of the late steps made a context").isEqualTo(1);
		assertThat(rpcsecGss.refusedContexts()).isEqualTo(4);
		assertThat(alice.call(dispatcher, 22)).isEqualTo(220 + 2);
		assertThat(this.runs).hasValue(2);
	}

	@Test
	void aConnectionThatClosesTakesItsContextsWithItInCreationOrEstablished(MitKdc kdc) throws Exception {
		RpcSecGssServer rpcsecGss = rpcsecGss(kdc, LIMITS);
		GatedExecutor executor = new GatedExecutor();
		executor.open();
		RpcDispatcher dispatcher = dispatcher(executor, rpcsecGss);
		Peer mallory = new Peer("mallory-connection");
		Client established = Client.establish(kdc, "gss-creation-mallory", dispatcher, mallory, this.xids);
		assertThat(established.call(dispatcher, 1)).isEqualTo(10 + 1);
		executor.hold();
		KerberosCredentials malloryLogin = login(kdc, "gss-creation-mallory");
		List<CompletableFuture<DispatchOutcome>> waiting = List.of(
				dispatcher.dispatch(init(apReq(malloryLogin)), "mallory-host", mallory.capturing, mallory),
				dispatcher.dispatch(init(apReq(malloryLogin)), "mallory-host", mallory.capturing, mallory));
		Client alice = Client.establish(kdc, "gss-creation-alice", dispatcher, new Peer("alice-connection"), this.xids,
				executor);
		assertThat(rpcsecGss.contexts()).isEqualTo(4);
		assertThat(mallory.closed.getNumberOfDependents()).as("one close callback for the connection's contexts")
			.isEqualTo(1);

		mallory.closed.complete(null);

		assertThat(rpcsecGss.contexts()).as("only the other connection's context").isEqualTo(1);
		executor.runHeld();
		for (CompletableFuture<DispatchOutcome> step : waiting) {
			step.get(10, TimeUnit.SECONDS);
		}
		assertThat(rpcsecGss.contexts()).as("the steps that ran after the close made no context").isEqualTo(1);
		executor.open();
		assertThat(alice.call(dispatcher, 2)).isEqualTo(20 + 2);
	}

	@Test
	void concurrentInitsTakeExactlyTheSharesOfTheirConnectionsAndPrincipal(MitKdc kdc) throws Exception {
		RpcSecGssServer rpcsecGss = rpcsecGss(kdc, LIMITS);
		RpcDispatcher dispatcher = dispatcher(ServerExecutor.boundedPool(4, 64), rpcsecGss);
		KerberosCredentials malloryLogin = login(kdc, "gss-creation-mallory");
		// Four connections of one principal, six INITs each, all at once: each connection may
		// reserve three, and the principal may hold five.
		List<Peer> peers = List.of(new Peer("m1"), new Peer("m2"), new Peer("m3"), new Peer("m4"));
		List<ByteBuffer> calls = new ArrayList<>();
		for (int i = 0; i < 24; i++) {
			calls.add(init(apReq(malloryLogin)));
		}
		CountDownLatch start = new CountDownLatch(1);
		List<Future<DispatchOutcome>> sent = new ArrayList<>();
		for (int i = 0; i < 24; i++) {
			Peer peer = peers.get(i % 4);
			ByteBuffer call = calls.get(i);
			sent.add(this.threads.submit(() -> {
				start.await();
				return dispatcher.dispatch(call, "mallory-host", peer.capturing, peer).get(30, TimeUnit.SECONDS);
			}));
		}
		start.countDown();
		for (Future<DispatchOutcome> each : sent) {
			assertThat(each.get(60, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
		}
		int complete = 0;
		int refused = 0;
		for (Peer peer : peers) {
			int completeHere = 0;
			for (byte[] reply : peer.capturing.drain()) {
				XdrDecoder decoder = new XdrDecoder(ByteBuffer.wrap(reply));
				RpcReply decoded = RpcMessageCodec.decodeReply(decoder);
				if (((AcceptedReply) decoded.body()).status() instanceof AcceptStatus.SystemErr) {
					refused++;
				}
				else {
					assertThat(decoder.readOpaqueBytes(400)).as("a handle").isNotEmpty();
					assertThat(decoder.readInt()).as("GSS_S_COMPLETE").isZero();
					completeHere++;
				}
			}
			assertThat(completeHere).as("contexts of " + peer.name).isLessThanOrEqualTo(3);
			complete += completeHere;
		}
		assertThat(complete).as("the principal's share").isEqualTo(5);
		assertThat(refused).isEqualTo(19);
		assertThat(rpcsecGss.contexts()).isEqualTo(5);
		assertThat(rpcsecGss.refusedContexts()).isEqualTo(19);
	}

	private RpcSecGssServer rpcsecGss(MitKdc kdc, GssContextLimits limits) throws Exception {
		return new RpcSecGssServer(KerberosCredentials.acceptorFromKeytab(MitKdc.qualified("rpcrdma/localhost"),
				kdc.principalWithKeytab("rpcrdma/localhost")), RpcSecGssServer.DEFAULT_WINDOW, limits, this.clock::get);
	}

	private RpcDispatcher dispatcher(ServerExecutor executor, RpcSecGssServer rpcsecGss) {
		ProgramRegistry registry = new ProgramRegistry().register(PROGRAM, 1, 1, Idempotence.IDEMPOTENT,
				ProcedureHandler.of((call, arguments, results) -> results.writeInt(
						arguments.readInt() * 10 + this.runs.incrementAndGet())));
		return new RpcDispatcher(registry, executor, null, new InFlightTracker(),
				SecurityPolicy.builder().rpcsecGss(rpcsecGss).build());
	}

	private static KerberosCredentials login(MitKdc kdc, String user) throws Exception {
		return KerberosCredentials.initiatorFromKeytab(MitKdc.qualified(user), kdc.principalWithKeytab(user));
	}

	/** A fresh AP-REQ from the user for the service: a real INIT token, used once. */
	private static byte[] apReq(KerberosCredentials login) {
		try (GssSession session = GssSession.initiate(login, SERVICE)) {
			return session.step(new byte[0]);
		}
	}

	/** RPCSEC_GSS_INIT on NULL carrying the token. */
	private ByteBuffer init(byte[] token) {
		ByteBuffer message = ByteBuffer.allocate(512 + token.length);
		XdrEncoder encoder = new XdrEncoder(message);
		RpcMessageCodec.encodeCall(new RpcCall(this.xids.incrementAndGet(), PROGRAM, 1, 0,
				new GssCredential(GssProcedure.INIT, 0, GssService.NONE, new byte[0]).toAuth(), AuthNone.INSTANCE),
				encoder);
		encoder.writeOpaque(token);
		return message.flip();
	}

	private static AcceptStatus status(byte[] reply) {
		return ((AcceptedReply) RpcMessageCodec.decodeReply(new XdrDecoder(ByteBuffer.wrap(reply))).body()).status();
	}

	/** One connection: its identity, its close, and the replies sent on it. */
	private static final class Peer implements ReplySink {

		final String name;

		final CapturingConnection capturing = new CapturingConnection(8192);

		final CompletableFuture<Void> closed = new CompletableFuture<>();

		Peer(String name) {
			this.name = name;
		}

		@Override
		public void send(int xid, ByteBuffer reply) {
			this.capturing.send(xid, reply);
		}

		@Override
		public Object connection() {
			return this;
		}

		@Override
		public CompletableFuture<Void> connectionClosed() {
			return this.closed;
		}

	}

	/** Holds the tasks it is given until told to run them, or runs them at once when open. */
	private static final class GatedExecutor implements ServerExecutor {

		private final Queue<Runnable> held = new ConcurrentLinkedQueue<>();

		private volatile boolean open;

		void open() {
			this.open = true;
		}

		void hold() {
			this.open = false;
		}

		int held() {
			return this.held.size();
		}

		void runHeld() {
			for (Runnable task = this.held.poll(); task != null; task = this.held.poll()) {
				task.run();
			}
		}

		@Override
		public boolean tryExecute(Runnable task) {
			if (this.open) {
				task.run();
			}
			else {
				this.held.add(task);
			}
			return true;
		}

		@Override
		public String description() {
			return "gated executor";
		}

		@Override
		public void close() {
		}

	}

	/** An honest client: one context made through the dispatcher, and DATA calls under it built by hand. */
	private static final class Client {

		private final GssSession session;

		private final byte[] handle;

		private final Peer peer;

		private final AtomicInteger xids;

		private int sequence;

		private Client(GssSession session, byte[] handle, Peer peer, AtomicInteger xids) {
			this.session = session;
			this.handle = handle;
			this.peer = peer;
			this.xids = xids;
		}

		static Client establish(MitKdc kdc, String user, RpcDispatcher dispatcher, Peer peer, AtomicInteger xids)
				throws Exception {
			return establish(kdc, user, dispatcher, peer, xids, null);
		}

		/** With {@code gated} set, opens it for this client's step alone. */
		static Client establish(MitKdc kdc, String user, RpcDispatcher dispatcher, Peer peer, AtomicInteger xids,
				GatedExecutor gated) throws Exception {
			GssSession session = GssSession.initiate(login(kdc, user), SERVICE);
			byte[] token = session.step(new byte[0]);
			ByteBuffer init = ByteBuffer.allocate(512 + token.length);
			XdrEncoder encoder = new XdrEncoder(init);
			RpcMessageCodec.encodeCall(new RpcCall(xids.incrementAndGet(), PROGRAM, 1, 0,
					new GssCredential(GssProcedure.INIT, 0, GssService.NONE, new byte[0]).toAuth(), AuthNone.INSTANCE),
					encoder);
			encoder.writeOpaque(token);
			if (gated != null) {
				gated.open();
			}
			try {
				dispatcher.dispatch(init.flip(), user + "-host", peer.capturing, peer).get(10, TimeUnit.SECONDS);
			}
			finally {
				if (gated != null) {
					gated.hold();
				}
			}
			XdrDecoder reply = new XdrDecoder(ByteBuffer.wrap(peer.capturing.nextReply()));
			assertThat(RpcMessageCodec.decodeReply(reply).isSuccess()).isTrue();
			byte[] handle = reply.readOpaqueBytes(400);
			assertThat(reply.readInt()).as("GSS_S_COMPLETE").isZero();
			reply.readInt();
			reply.readInt();
			byte[] answer = reply.readOpaqueBytes(8192);
			if (answer.length > 0) {
				session.step(answer);
			}
			assertThat(session.established()).isTrue();
			return new Client(session, handle, peer, xids);
		}

		/** Procedure 1 under the context (krb5): its result, after checking the reply's verifier. */
		int call(RpcDispatcher dispatcher, int argument) throws Exception {
			int sequence = ++this.sequence;
			int xid = this.xids.incrementAndGet();
			OpaqueAuth credential = new GssCredential(GssProcedure.DATA, sequence, GssService.NONE, this.handle).toAuth();
			ByteBuffer header = ByteBuffer.allocate(1024);
			RpcMessageCodec.encodeCall(new RpcCall(xid, PROGRAM, 1, 1, credential, AuthNone.INSTANCE),
					new XdrEncoder(header));
			// RFC 2203 §5.3.1: the verifier is a MIC over the header up to the verifier.
			int headerLength = 24 + RpcMessageCodec.encodedSize(credential);
			byte[] signed = new byte[headerLength];
			header.get(0, signed);
			ByteBuffer message = ByteBuffer.allocate(2048);
			message.put(signed);
			new XdrEncoder(message).writeInt(AuthFlavor.RPCSEC_GSS)
				.writeOpaque(this.session.mic(signed, 0, headerLength))
				.writeInt(argument);
			assertThat(dispatcher.dispatch(message.flip(), "honest-host", this.peer.capturing, this.peer)
				.get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
			XdrDecoder reply = new XdrDecoder(ByteBuffer.wrap(this.peer.capturing.nextReply()));
			RpcReply decoded = RpcMessageCodec.decodeReply(reply);
			assertThat(decoded.xid()).isEqualTo(xid);
			assertThat(decoded.isSuccess()).as("the DATA call ran").isTrue();
			byte[] mic = ((RawAuth) ((AcceptedReply) decoded.body()).verifier()).body();
			assertThat(this.session.verifyMic(ByteBuffer.allocate(4).putInt(sequence).array(), 0, 4, mic)).isTrue();
			return reply.readInt();
		}

	}

}

package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.HeaderDecodeResult;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.TransportHeaderDecoder;
import io.rpcrdma.transport.RawPeer;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.xdr.XdrDecoder;

/**
 * The duplicate request cache of a real {@link RpcServer} against requesters that send raw
 * RPC-over-RDMA calls, all from one host (the provider's client host) and each connection from
 * its own port: a call reusing the xid of its requester's running call is never executed;
 * another requester on the host can neither make a victim's call run twice, by calls with the
 * victim's xid, nor evict the victim's cached reply, by flooding; and honest retransmissions
 * from a new connection get the reply of the call they repeat.
 * <p>
 * The non-idempotent procedure counts its executions per argument, and the first execution of
 * {@link #HELD} stays running until the test releases it. Handlers run on the receive thread
 * ({@link RpcServer.ExecutorKind#DIRECT}) and the held one returns a stage, so a connection's
 * calls are dispatched in order: once the reply to a probe sent after a call has arrived, that
 * call has been executed or not, for good.
 */
abstract class DuplicateRequestHostilePeerTests {

	private static final int PROGRAM = 0x2000_0133;

	/** Non-idempotent: returns its argument. */
	private static final int APPEND = 1;

	/** Idempotent: returns its argument; a barrier on its connection. */
	private static final int PROBE = 2;

	/** The argument whose first execution stays running until {@link #release}. */
	private static final int HELD = 1;

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	/** The victim's xid, which the others reuse. */
	private static final int XID = 0x5eed_0033;

	/** At most this many entries per requester (address with port)... */
	private static final int PER_PEER = 4;

	/** ...and this many in all. */
	private static final int TOTAL = 8;

	private final Map<Integer, AtomicInteger> executions = new ConcurrentHashMap<>();

	private final CountDownLatch started = new CountDownLatch(1);

	private final CompletableFuture<Void> release = new CompletableFuture<>();

	private final AtomicInteger nextProbe = new AtomicInteger(0x7000_0000);

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private RdmaProvider serverProvider;

	private RdmaProvider clientProvider;

	private RpcServer server;

	/** @return a newly opened provider of the kind under test */
	protected abstract RdmaProvider openProvider();

	/** @return where the server listens; port 0 for any */
	protected abstract InetSocketAddress listenAddress();

	@BeforeEach
	void start() {
		this.serverProvider = openProvider();
		this.clientProvider = openProvider();
		RegisteredMemoryPool pool = new RegisteredMemoryPool(this.serverProvider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2).withLeakTracking(true));
		ProgramRegistry registry = new ProgramRegistry()
			.register(PROGRAM, 1, APPEND, Idempotence.NON_IDEMPOTENT, (call, arguments, results) -> {
				int argument = arguments.readInt();
				int run = this.executions.computeIfAbsent(argument, (key) -> new AtomicInteger()).incrementAndGet();
				if (argument == HELD && run == 1) {
					this.started.countDown();
					return this.release.thenRun(() -> results.writeInt(argument));
				}
				results.writeInt(argument);
				return ProcedureHandler.DONE;
			})
			.register(PROGRAM, 1, PROBE, Idempotence.IDEMPOTENT,
					ProcedureHandler.of((call, arguments, results) -> results.writeInt(arguments.readInt())));
		this.server = RpcServer.start(RpcServer.Config.defaults(this.serverProvider, pool, listenAddress())
			.withTransport(TransportConfig.defaults().withCredits(8, 8, 12))
			.withExecutor(new RpcServer.ExecutorSpec(RpcServer.ExecutorKind.DIRECT, 1, 0))
			.withDuplicateRequestCache(true, PER_PEER, TOTAL, Duration.ofMinutes(2)), registry);
	}

	@AfterEach
	void stop() throws Exception {
		this.release.complete(null);
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
		this.server.shutdown(Duration.ZERO).get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
		this.clientProvider.close();
		this.serverProvider.close();
	}

	private int executionsOf(int argument) {
		AtomicInteger count = this.executions.get(argument);
		return (count != null) ? count.get() : 0;
	}

	@Test
	void aCallReusingTheXidOfItsRequestersRunningCallIsNeverExecuted() throws Exception {
		Requester victim = connect();
		victim.send(XID, APPEND, HELD);
		assertThat(this.started.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

		victim.send(XID, APPEND, 2);
		victim.probe();
		this.release.complete(null);

		assertThat(victim.replyTo(XID)).as("the original's reply").isEqualTo(HELD);
		assertThat(connect().call(XID, APPEND, HELD)).as("its retransmission from a new connection").isEqualTo(HELD);
		assertThat(executionsOf(2)).as("executions of the call reusing the running call's xid").isZero();
		assertThat(executionsOf(HELD)).as("executions of the original").isEqualTo(1);
	}

	@Test
	void anotherRequesterOnTheHostCannotMakeAVictimsCallRunTwiceWithItsXid() throws Exception {
		Requester victim = connect();
		victim.send(XID, APPEND, HELD);
		assertThat(this.started.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		Requester attacker = connect();

		assertThat(attacker.call(XID, APPEND, 666)).as("the attacker's own call, while the victim's runs")
			.isEqualTo(666);
		victim.close();
		Requester reconnected = connect();
		reconnected.send(XID, APPEND, HELD);
		reconnected.probe();
		this.release.complete(null);
		assertThat(reconnected.replyTo(XID)).as("the retransmission, answered when the original ends")
			.isEqualTo(HELD);
		assertThat(attacker.call(XID, APPEND, 667)).as("the attacker's call once the victim's is done").isEqualTo(667);

		assertThat(connect().call(XID, APPEND, HELD)).as("another retransmission").isEqualTo(HELD);
		assertThat(executionsOf(HELD)).as("executions of the victim's call").isEqualTo(1);
	}

	@Test
	void aFloodFromOtherRequestersOnTheHostNeverEvictsTheVictimsReply() throws Exception {
		Requester victim = connect();
		assertThat(victim.call(XID, APPEND, 5)).isEqualTo(5);
		victim.close();

		int xid = 0x0bad_0000;
		for (int connection = 0; connection < 3; connection++) {
			Requester flooder = connect();
			for (int i = 0; i < 3 * PER_PEER; i++) {
				assertThat(flooder.call(++xid, APPEND, 100 + i)).isEqualTo(100 + i);
			}
		}

		assertThat(connect().call(XID, APPEND, 5)).as("the victim's retransmission").isEqualTo(5);
		assertThat(executionsOf(5)).as("executions of the victim's call").isEqualTo(1);
		DuplicateRequestCacheStats stats = this.server.dispatcher().duplicateRequestCacheStats().orElseThrow();
		assertThat(stats.entries()).isLessThanOrEqualTo(TOTAL);
		assertThat(stats.evictions()).as("the flooders evicted their own").isPositive();
	}

	@Test
	void honestRequestersOnTheHostWhoseXidsCollideEachGetTheirOwnReplyAfterReconnecting() throws Exception {
		Requester first = connect();
		first.send(XID, APPEND, HELD);
		assertThat(this.started.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		Requester second = connect();
		assertThat(second.call(XID, APPEND, 2)).isEqualTo(2);

		first.close();
		Requester firstAgain = connect();
		firstAgain.send(XID, APPEND, HELD);
		firstAgain.probe();
		this.release.complete(null);
		assertThat(firstAgain.replyTo(XID)).as("the first's retransmission, after the original ended")
			.isEqualTo(HELD);
		assertThat(firstAgain.call(XID, APPEND, HELD)).as("once more on the same connection").isEqualTo(HELD);
		second.close();
		assertThat(connect().call(XID, APPEND, 2)).as("the second's retransmission").isEqualTo(2);

		assertThat(executionsOf(HELD)).as("executions of the first's call").isEqualTo(1);
		assertThat(executionsOf(2)).as("executions of the second's call").isEqualTo(1);
		assertThat(this.server.dispatcher().duplicateRequestCacheStats().orElseThrow().hits()).isEqualTo(2);
	}

	/** A new connection from the client host, which has had a reply (so has its credits). */
	private Requester connect() throws Exception {
		RawPeer peer = RawPeer.connect(this.clientProvider, this.server.localAddress(), PrivateData.EMPTY, DEADLINE);
		this.closeables.add(peer::close);
		Requester requester = new Requester(peer);
		requester.probe();
		return requester;
	}

	/** RPC calls sent over RPC-over-RDMA Version 1 by hand. */
	private final class Requester {

		private final RawPeer peer;

		Requester(RawPeer peer) {
			this.peer = peer;
		}

		void send(int xid, int procedure, int argument) {
			this.peer.send(new RdmaMsg(xid, 8, ChunkLists.EMPTY), Wire.call(RpcCall.of(xid, PROGRAM, 1, procedure), argument));
		}

		/** Sends a call and returns the result of the reply that comes next, which must be its. */
		int call(int xid, int procedure, int argument) {
			send(xid, procedure, argument);
			return replyTo(xid);
		}

		/**
		 * A barrier: the next reply on this connection must be this probe's, so every call sent
		 * before it was dispatched without a reply of its own.
		 */
		void probe() {
			int xid = DuplicateRequestHostilePeerTests.this.nextProbe.incrementAndGet();
			send(xid, PROBE, xid);
			assertThat(replyTo(xid, "the probe's, as no call sent before it may have been executed and answered"))
				.isEqualTo(xid);
		}

		/** The result in the next reply, which must answer {@code xid} with success. */
		int replyTo(int xid) {
			return replyTo(xid, "the call's");
		}

		private int replyTo(int xid, String whose) {
			ByteBuffer message = this.peer.receive();
			HeaderDecodeResult result = new TransportHeaderDecoder().decode(message.duplicate());
			assertThat(result).isInstanceOf(HeaderDecodeResult.Valid.class);
			HeaderDecodeResult.Valid valid = (HeaderDecodeResult.Valid) result;
			XdrDecoder decoder = new XdrDecoder(message.slice(valid.payloadOffset(), valid.payloadLength()));
			RpcReply reply = RpcMessageCodec.decodeReply(decoder);
			assertThat(reply.xid()).as("the xid of the next reply, %s", whose).isEqualTo(xid);
			assertThat(reply.isSuccess()).as("%s", reply).isTrue();
			return decoder.readInt();
		}

		void close() {
			this.peer.close();
		}

	}

}

package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.ReceivedReply;
import io.rpcrdma.client.RpcClient;
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
import io.rpcrdma.transport.RpcRdmaServerConnection;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.SoftwareProvider;
import io.rpcrdma.xdr.XdrDecoder;

/**
 * A real {@link RpcServer}, on each software provider, whose two workers a client (or a raw
 * peer sending without waiting for credits) floods with slow calls on one connection, as many
 * as its credits allow: the quiet clients' calls, on
 * connections of their own, are all answered once a single slow call has finished, instead of
 * being refused (the pool's queue holds fewer calls than the flood) or waiting behind the whole
 * flood; the flood's calls all complete in their turn, none refused. Without each connection's
 * {@link ExecutorShare} the quiet calls fail with SYSTEM_ERR.
 */
@ParameterizedClass
@EnumSource(SoftwareProvider.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExecutorShareEndToEndTest {

	private static final int PROGRAM = 0x2000_0134;

	private static final int SLOW = 1;

	private static final int QUICK = 2;

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private static final int THREADS = 2;

	private static final int QUEUE = 8;

	private static final int QUIET_CLIENTS = 6;

	@Parameter
	SoftwareProvider provider;

	private final Semaphore slowStarted = new Semaphore(0);

	/** One permit lets one slow call finish. */
	private final Semaphore finish = new Semaphore(0);

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private RdmaProvider serverProvider;

	private RdmaProvider clientProvider;

	private RegisteredMemoryPool clientPool;

	private RpcServer server;

	@BeforeEach
	void start() {
		this.serverProvider = this.provider.open();
		this.clientProvider = this.provider.open();
		RegisteredMemoryPool serverPool = new RegisteredMemoryPool(this.serverProvider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
		this.clientPool = new RegisteredMemoryPool(this.clientProvider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
		ProgramRegistry registry = new ProgramRegistry()
			.register(PROGRAM, 1, SLOW, Idempotence.IDEMPOTENT, ProcedureHandler.of((call, arguments, results) -> {
				this.slowStarted.release();
				if (!this.finish.tryAcquire(30, TimeUnit.SECONDS)) {
					throw new IllegalStateException("the test never let this slow call finish");
				}
				results.writeInt(call.xid());
			}))
			.register(PROGRAM, 1, QUICK, Idempotence.IDEMPOTENT,
					ProcedureHandler.of((call, arguments, results) -> results.writeInt(call.xid())));
		this.server = RpcServer.start(RpcServer.Config.defaults(this.serverProvider, serverPool,
				this.provider.listenAddress("executor-share"))
			.withExecutor(new RpcServer.ExecutorSpec(RpcServer.ExecutorKind.BOUNDED_POOL, THREADS, QUEUE)), registry);
	}

	@AfterEach
	void stop() throws Exception {
		this.finish.release(1000);
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
		this.server.shutdown(Duration.ZERO).get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
		this.clientPool.close();
		this.clientProvider.close();
		this.serverProvider.close();
	}

	@Test
	void quietConnectionsAreAnsweredWhileOneConnectionFloodsTheWorkersWithSlowCalls() throws Exception {
		RpcClient flooder = client();
		// Its grant bounds how many calls it can have at the server at once; a grant that grows
		// with use (RFC 8166 §3.3) grows with bursts of calls.
		for (int round = 0; round < 8 && grantOfTheOnlyConnection() <= THREADS + QUEUE; round++) {
			List<CompletableFuture<ReceivedReply>> burst = new ArrayList<>();
			for (int i = 0; i < grantOfTheOnlyConnection(); i++) {
				burst.add(flooder.call(PROGRAM, 1, QUICK, CallBody.NONE, DEADLINE));
			}
			for (CompletableFuture<ReceivedReply> call : burst) {
				call.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS).release();
			}
		}
		int flood = Math.min(2 * (THREADS + QUEUE), grantOfTheOnlyConnection());
		assertThat(flood).as("the flooder's grant: more calls than the pool holds").isGreaterThan(THREADS + QUEUE);
		List<RpcClient> quiet = new ArrayList<>();
		for (int i = 0; i < QUIET_CLIENTS; i++) {
			quiet.add(client());
		}

		long deferredBefore = this.server.dispatcher().stats().deferred();
		List<CompletableFuture<ReceivedReply>> slow = new ArrayList<>();
		for (int i = 0; i < flood; i++) {
			slow.add(flooder.call(PROGRAM, 1, SLOW, CallBody.NONE, Duration.ofSeconds(40)));
		}
		assertThat(this.slowStarted.tryAcquire(THREADS, DEADLINE.toMillis(), TimeUnit.MILLISECONDS))
			.as("the flood holds every worker").isTrue();
		awaitAtServer(flood);

		List<CompletableFuture<ReceivedReply>> answers = new ArrayList<>();
		for (RpcClient client : quiet) {
			answers.add(client.call(PROGRAM, 1, QUICK, CallBody.NONE, DEADLINE));
		}
		awaitAtServer(flood + QUIET_CLIENTS);
		this.finish.release();

		for (CompletableFuture<ReceivedReply> answer : answers) {
			answer.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS).release();
		}
		assertThat(slow.stream().filter(CompletableFuture::isDone)).as("slow calls finished meanwhile").hasSize(1);
		this.finish.release(flood);
		for (CompletableFuture<ReceivedReply> call : slow) {
			call.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS).release();
		}
		RpcDispatcher.Stats stats = this.server.dispatcher().stats();
		assertThat(stats.overloaded()).as("calls refused").isZero();
		assertThat(stats.deferred() - deferredBefore).as("the flood's calls that waited on their connection")
			.isEqualTo(flood - THREADS);
	}

	@Test
	void quietRawPeersAreAnsweredWhileARawPeerFloodsTheWorkersWithSlowCalls() throws Exception {
		RawRequester flooder = new RawRequester();
		int flood = Math.min(RawRequester.MOST_OUTSTANDING, flooder.warmUp(THREADS + QUEUE + 1));
		assertThat(flood).as("the flooder's grant: more calls than the pool holds").isGreaterThan(THREADS + QUEUE);
		List<RawRequester> quiet = new ArrayList<>();
		for (int i = 0; i < QUIET_CLIENTS; i++) {
			RawRequester requester = new RawRequester();
			requester.warmUp(1);
			quiet.add(requester);
		}

		long deferredBefore = this.server.dispatcher().stats().deferred();
		for (int i = 0; i < flood; i++) {
			flooder.send(0x0f10_0000 + i, SLOW);
		}
		assertThat(this.slowStarted.tryAcquire(THREADS, DEADLINE.toMillis(), TimeUnit.MILLISECONDS))
			.as("the flood holds every worker").isTrue();
		awaitAtServer(flood);
		for (int i = 0; i < quiet.size(); i++) {
			quiet.get(i).send(0x0a10_0000 + i, QUICK);
		}
		awaitAtServer(flood + quiet.size());
		this.finish.release();

		for (int i = 0; i < quiet.size(); i++) {
			assertThat(quiet.get(i).nextReply()).as("the quiet peer's reply").isEqualTo(0x0a10_0000 + i);
		}
		this.finish.release(flood);
		for (int i = 0; i < flood; i++) {
			flooder.nextReply();
		}
		RpcDispatcher.Stats stats = this.server.dispatcher().stats();
		assertThat(stats.overloaded()).as("calls refused").isZero();
		assertThat(stats.deferred() - deferredBefore).as("the flood's calls that waited on their connection")
			.isEqualTo(flood - THREADS);
	}

	/** RPC calls over RPC-over-RDMA Version 1 by hand, from a peer that never waits for credits. */
	private final class RawRequester {

		/** What a raw peer can receive at once. */
		static final int MOST_OUTSTANDING = 16;

		private final RawPeer peer;

		private int grant = 1;

		RawRequester() throws Exception {
			this.peer = RawPeer.connect(ExecutorShareEndToEndTest.this.clientProvider,
					ExecutorShareEndToEndTest.this.server.localAddress(), PrivateData.EMPTY, DEADLINE);
			ExecutorShareEndToEndTest.this.closeables.add(this.peer::close);
		}

		/**
		 * Sends bursts of quick calls, each as large as the grant, until the grant reaches
		 * {@code wanted} (or stops growing).
		 * @return the grant
		 */
		int warmUp(int wanted) {
			int xid = 0x0e10_0000;
			for (int round = 0; round < 8; round++) {
				int burst = Math.min(this.grant, MOST_OUTSTANDING);
				for (int i = 0; i < burst; i++) {
					send(++xid, QUICK);
				}
				for (int i = 0; i < burst; i++) {
					nextReply();
				}
				if (this.grant >= wanted) {
					break;
				}
			}
			return this.grant;
		}

		void send(int xid, int procedure) {
			this.peer.send(new RdmaMsg(xid, MOST_OUTSTANDING, ChunkLists.EMPTY),
					Wire.call(RpcCall.of(xid, PROGRAM, 1, procedure)));
		}

		/** The xid of the next reply, which must be a success; the grant it carries is kept. */
		int nextReply() {
			ByteBuffer message = this.peer.receive();
			HeaderDecodeResult result = new TransportHeaderDecoder().decode(message.duplicate());
			assertThat(result).isInstanceOf(HeaderDecodeResult.Valid.class);
			HeaderDecodeResult.Valid valid = (HeaderDecodeResult.Valid) result;
			this.grant = valid.header().credits();
			RpcReply reply = RpcMessageCodec
				.decodeReply(new XdrDecoder(message.slice(valid.payloadOffset(), valid.payloadLength())));
			assertThat(reply.isSuccess()).as("%s", reply).isTrue();
			return reply.xid();
		}

	}

	/** A connected client that has had a reply, and so the grant the server gives it. */
	private RpcClient client() throws Exception {
		RpcClient client = RpcClient.connect(this.clientProvider, this.clientPool, this.server.localAddress(),
				TransportConfig.defaults(), 64).get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
		this.closeables.add(client);
		client.call(PROGRAM, 1, QUICK, CallBody.NONE, DEADLINE).get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS).release();
		return client;
	}

	/** The server's grant to the one connection open so far. */
	private int grantOfTheOnlyConnection() {
		List<RpcRdmaServerConnection> connections = this.server.connections();
		assertThat(connections).hasSize(1);
		return connections.get(0).grant();
	}

	/**
	 * Waits until the server has taken in {@code calls} calls: admitted (running, queued, or
	 * waiting on their connection) or refused.
	 */
	private void awaitAtServer(int calls) {
		long deadline = System.nanoTime() + DEADLINE.toNanos();
		while (this.server.dispatcher().inFlight().inFlight() + this.server.dispatcher().stats().overloaded() < calls) {
			assertThat(System.nanoTime()).as("the flood reached the server before the deadline").isLessThan(deadline);
			Thread.yield();
		}
	}

}

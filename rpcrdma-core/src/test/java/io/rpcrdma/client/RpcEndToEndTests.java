package io.rpcrdma.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.server.GarbageArgumentsException;
import io.rpcrdma.server.Idempotence;
import io.rpcrdma.server.InFlightTracker;
import io.rpcrdma.server.ProcedureHandler;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.transport.DdpRange;
import io.rpcrdma.transport.InboundReply;
import io.rpcrdma.transport.OutboundCall;
import io.rpcrdma.transport.RpcRdmaClientConnection;
import io.rpcrdma.transport.TransportClosedException;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.transport.TransportStats;
import io.rpcrdma.verbs.ConnectionRefusedException;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * {@link RpcClient} and {@link RpcServer} joined over a real RDMA provider: ONC RPC calls and
 * every kind of answer travel through RPC-over-RDMA end to end. Subclasses choose the
 * provider, so the same tests run over loopback now and over software iWARP later.
 */
abstract class RpcEndToEndTests {

	static final int PROGRAM = 0x2000_0101;

	static final int ADD = 1;

	static final int COUNT = 2;

	static final int ECHO = 3;

	static final int FAIL = 4;

	static final int BLOCK = 5;

	static final Duration DEADLINE = Duration.ofSeconds(10);

	private RdmaProvider serverProvider;

	private RdmaProvider clientProvider;

	private RegisteredMemoryPool serverPool;

	private RegisteredMemoryPool clientPool;

	private final List<AutoCloseable> closeables = Collections.synchronizedList(new ArrayList<>());

	final AtomicInteger counted = new AtomicInteger();

	final AtomicInteger countExecutions = new AtomicInteger();

	final AtomicInteger blockExecutions = new AtomicInteger();

	volatile CountDownLatch blockStarted = new CountDownLatch(0);

	final CountDownLatch release = new CountDownLatch(1);

	/** @return a newly opened provider of the kind under test */
	protected abstract RdmaProvider openProvider();

	/** @return where a test server listens; port 0 for any */
	protected abstract InetSocketAddress listenAddress();

	@BeforeEach
	void open() {
		this.serverProvider = openProvider();
		this.clientProvider = openProvider();
		MemoryPoolConfig pools = MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2);
		this.serverPool = new RegisteredMemoryPool(this.serverProvider.allocateProtectionDomain(), pools);
		this.clientPool = new RegisteredMemoryPool(this.clientProvider.allocateProtectionDomain(), pools);
	}

	@AfterEach
	void closeAll() throws Exception {
		this.release.countDown();
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
		this.clientProvider.close();
		this.serverProvider.close();
	}

	ProgramRegistry registry() {
		return new ProgramRegistry()
			.register(PROGRAM, 1, ADD, Idempotence.IDEMPOTENT, ProcedureHandler.of((call, arguments, results) -> {
				results.writeInt(arguments.readInt() + arguments.readInt());
			}))
			.register(PROGRAM, 1, COUNT, ProcedureHandler.of((call, arguments, results) -> {
				int step = arguments.readInt();
				if (step < 0) {
					throw new GarbageArgumentsException("step must not be negative");
				}
				this.countExecutions.incrementAndGet();
				results.writeInt(this.counted.addAndGet(step));
			}))
			.register(PROGRAM, 1, ECHO, Idempotence.IDEMPOTENT, ProcedureHandler.of((call, arguments, results) -> {
				byte[] data = arguments.readOpaqueBytes(1 << 20);
				for (int i = 0; i < data.length; i++) {
					data[i] = (byte) ~data[i];
				}
				results.writeOpaque(data);
			}))
			.register(PROGRAM, 1, FAIL, Idempotence.IDEMPOTENT, ProcedureHandler.of((call, arguments, results) -> {
				throw new IllegalStateException("the handler failed");
			}))
			.register(PROGRAM, 1, BLOCK, Idempotence.IDEMPOTENT, ProcedureHandler.of((call, arguments, results) -> {
				this.blockExecutions.incrementAndGet();
				this.blockStarted.countDown();
				if (!this.release.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)) {
					throw new IllegalStateException("never released");
				}
				results.writeInt(arguments.readInt());
			}));
	}

	static TransportConfig transportConfig() {
		return TransportConfig.defaults().withCredits(8, 8, 12);
	}

	RpcServer server() {
		RpcServer server = RpcServer.start(
				RpcServer.Config.defaults(this.serverProvider, this.serverPool, listenAddress())
					.withTransport(transportConfig())
					.withExecutor(new RpcServer.ExecutorSpec(RpcServer.ExecutorKind.BOUNDED_POOL, 4, 16)),
				registry());
		this.closeables.add(() -> server.shutdown(Duration.ZERO).get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS));
		return server;
	}

	RpcClient client(RpcServer server) throws Exception {
		RpcClient client = await(
				RpcClient.connect(this.clientProvider, this.clientPool, server.localAddress(), transportConfig(), 16));
		this.closeables.add(client);
		// A requester starts with one credit; the first reply grants the rest (RFC 8166 §3.3.1).
		assertThat(intResult(await(client.call(PROGRAM, 1, ADD, ints(0, 0), DEADLINE)))).isZero();
		return client;
	}

	RpcRdmaClientConnection rawConnection(RpcServer server) throws Exception {
		RpcRdmaClientConnection connection = await(RpcRdmaClientConnection.connect(this.clientProvider,
				this.clientPool, server.localAddress(), transportConfig()));
		this.closeables.add(connection);
		return connection;
	}

	static <T> T await(CompletableFuture<T> future) throws Exception {
		return future.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
	}

	static Throwable failure(CompletableFuture<?> future) throws Exception {
		try {
			future.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			return ex.getCause();
		}
		throw new AssertionError("The call succeeded but was expected to fail");
	}

	static int intResult(ReceivedReply reply) {
		try {
			return reply.results().readInt();
		}
		finally {
			reply.release();
		}
	}

	static CallBody ints(int... values) {
		return (encoder) -> {
			for (int value : values) {
				encoder.writeInt(value);
			}
		};
	}

	@Test
	void anInlineCallGetsItsResultsFromTheRegisteredHandler() throws Exception {
		RpcServer server = server();
		RpcClient client = client(server);

		assertThat(intResult(await(client.call(PROGRAM, 1, ADD, ints(40, 2), DEADLINE)))).isEqualTo(42);
		assertThat(intResult(await(client.call(PROGRAM, 1, COUNT, ints(5), DEADLINE)))).isEqualTo(5);
		ReceivedReply nullReply = await(client.call(PROGRAM, 1, 0, CallBody.NONE, DEADLINE));
		assertThat(nullReply.results().remaining()).isZero();
		nullReply.release();
		assertThat(client.pendingCalls()).isZero();

		RpcRdmaClientConnection connection = (RpcRdmaClientConnection) client.transport();
		assertThat(server.connections()).singleElement().satisfies((accepted) -> {
			assertThat(accepted.version()).as("the version of the requester's calls").isEqualTo(connection.version());
			assertThat(accepted.grant()).isEqualTo(8);
			assertThat(accepted.inlineThresholds(connection.version()).receive())
				.isEqualTo(connection.inlineThresholds(connection.version()).send());
		});
		assertThat(server.creditBudget().granted()).isEqualTo(8);
	}

	@Test
	void serverAndConnectionTotalsCountBytesByOperation() throws Exception {
		RpcServer server = server();
		RpcClient client = client(server);
		byte[] data = new byte[100_000];
		CallShape ddp = new CallShape(data.length + 1024, List.of(new DdpRange(4, data.length)), List.of(),
				data.length + 1024);
		await(client.call(PROGRAM, 1, ECHO, (encoder) -> encoder.writeOpaque(data), ddp, DEADLINE)
			.thenApply(RpcEndToEndTests::opaqueResult));

		TransportStats served = server.transportStats();
		assertThat(served.bytesRead()).as("the Read chunk pulled by the server").isEqualTo(data.length);
		assertThat(served.bytesWritten()).as("the Reply chunk pushed by the server").isGreaterThan(data.length);
		assertThat(served.bytesSent()).as("two replies' transport headers at least").isGreaterThan(0);
		TransportStats sent = client.transport().stats();
		assertThat(sent.bytesRead()).isZero();
		assertThat(sent.bytesWritten()).isZero();
		assertThat(sent.bytesSent()).isGreaterThan(0).isLessThan(data.length);
	}

	@Test
	void eachServerRefusalArrivesAsItsOwnClientException() throws Exception {
		RpcServer server = server();
		RpcClient client = client(server);

		assertThat(failure(client.call(PROGRAM + 1, 1, ADD, ints(1, 2), DEADLINE)))
			.isInstanceOf(ProgramUnavailableException.class);
		assertThat(failure(client.call(PROGRAM, 7, ADD, ints(1, 2), DEADLINE)))
			.isInstanceOf(ProgramVersionMismatchException.class)
			.hasMessageContaining("which supports versions 1 to 1");
		assertThat(failure(client.call(PROGRAM, 1, 99, CallBody.NONE, DEADLINE)))
			.isInstanceOf(ProcedureUnavailableException.class);
		assertThat(failure(client.call(PROGRAM, 1, COUNT, ints(-1), DEADLINE)))
			.isInstanceOf(RemoteGarbageArgumentsException.class);
		assertThat(failure(client.call(PROGRAM, 1, ADD, ints(1), DEADLINE))).as("a missing argument")
			.isInstanceOf(RemoteGarbageArgumentsException.class);
		assertThat(failure(client.call(PROGRAM, 1, FAIL, CallBody.NONE, DEADLINE)))
			.isInstanceOf(RemoteSystemErrorException.class);
		assertThat(intResult(await(client.call(PROGRAM, 1, ADD, ints(1, 2), DEADLINE)))).as("still usable")
			.isEqualTo(3);
	}

	@Test
	void aLongCallAndALongReplyTravelInChunks() throws Exception {
		RpcServer server = server();
		RpcClient client = client(server);
		byte[] data = new byte[100_000];
		for (int i = 0; i < data.length; i++) {
			data[i] = (byte) (i * 31 + 7);
		}

		// The argument goes in a Read chunk, the reply (far above the inline threshold) in a Reply chunk.
		CallShape ddp = new CallShape(data.length + 1024, List.of(new DdpRange(4, data.length)), List.of(),
				data.length + 1024);
		byte[] echoed = await(client.call(PROGRAM, 1, ECHO, (encoder) -> encoder.writeOpaque(data), ddp, DEADLINE)
			.thenApply(RpcEndToEndTests::opaqueResult));
		// A long call without DDP items goes whole in a position-zero Read chunk.
		byte[] again = await(client.call(PROGRAM, 1, ECHO, (encoder) -> encoder.writeOpaque(data),
				CallShape.of(data.length + 1024, data.length + 1024), DEADLINE)
			.thenApply(RpcEndToEndTests::opaqueResult));

		byte[] expected = data.clone();
		for (int i = 0; i < expected.length; i++) {
			expected[i] = (byte) ~expected[i];
		}
		assertThat(echoed).isEqualTo(expected);
		assertThat(again).isEqualTo(expected);
	}

	private static byte[] opaqueResult(ReceivedReply reply) {
		try {
			return reply.results().readOpaqueBytes(1 << 20);
		}
		finally {
			reply.release();
		}
	}

	@Test
	void losingTheConnectionMidCallFailsEveryPendingCallAtOnce() throws Exception {
		RpcServer server = server();
		RpcClient client = client(server);
		this.blockStarted = new CountDownLatch(3);
		List<CompletableFuture<ReceivedReply>> calls = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			calls.add(client.call(PROGRAM, 1, BLOCK, ints(i), DEADLINE));
		}
		assertThat(this.blockStarted.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).as("handlers started").isTrue();

		// No grace: the server closes its connections with the calls still running.
		CompletableFuture<InFlightTracker.ShutdownReport> shutdown = server.shutdown(Duration.ZERO);

		for (CompletableFuture<ReceivedReply> call : calls) {
			assertThat(failure(call)).isInstanceOf(ConnectionLostException.class)
				.hasCauseInstanceOf(TransportClosedException.class)
				.hasMessageContaining(client.endpoint());
		}
		assertThat(client.pendingCalls()).isZero();
		assertThat(failure(client.call(PROGRAM, 1, ADD, ints(1, 2), DEADLINE)))
			.as("a call after the loss").isInstanceOf(ConnectionLostException.class);
		this.release.countDown();
		assertThat(await(shutdown).quiescent()).isFalse();
	}

	@Test
	void aRetransmissionOnANewConnectionIsAnsweredFromTheCacheWithoutExecutingTwice() throws Exception {
		RpcServer server = server();
		int xid = 0x5eed_0001;
		RpcRdmaClientConnection first = rawConnection(server);
		InboundReply original = await(first.call(OutboundCall.inline(countCall(xid, 3))));
		first.close();
		await(first.closeFuture());

		RpcRdmaClientConnection second = rawConnection(server);
		InboundReply retransmitted = await(second.call(OutboundCall.inline(countCall(xid, 3))));
		InboundReply fresh = await(second.call(OutboundCall.inline(countCall(xid + 1, 3))));

		assertThat(bytes(retransmitted.message())).isEqualTo(bytes(original.message()));
		assertThat(this.countExecutions).as("executions of the non-idempotent procedure").hasValue(2);
		assertThat(this.counted).hasValue(6);
		assertThat(fresh.xid()).isEqualTo(xid + 1);
		assertThat(server.dispatcher().duplicateRequestCacheStats()).hasValueSatisfying((drc) -> {
			assertThat(drc.hits()).isEqualTo(1);
			assertThat(drc.misses()).isEqualTo(2);
		});
		assertThat(server.transportStats().inlineMessages()).as("replies of the closed connection still count")
			.isEqualTo(3);
	}

	private static ByteBuffer countCall(int xid, int step) {
		ByteBuffer buffer = ByteBuffer.allocate(128);
		XdrEncoder encoder = new XdrEncoder(buffer);
		RpcMessageCodec.encodeCall(RpcCall.of(xid, PROGRAM, 1, COUNT), encoder);
		encoder.writeInt(step);
		return buffer.flip();
	}

	private static byte[] bytes(ByteBuffer buffer) {
		ByteBuffer copy = buffer.duplicate();
		byte[] out = new byte[copy.remaining()];
		copy.get(out);
		return out;
	}

	@Test
	void aGracefulShutdownFinishesRunningCallsAndRefusesNewOnes() throws Exception {
		RpcServer server = server();
		RpcClient client = client(server);
		this.blockStarted = new CountDownLatch(2);
		CompletableFuture<ReceivedReply> one = client.call(PROGRAM, 1, BLOCK, ints(1), DEADLINE);
		CompletableFuture<ReceivedReply> two = client.call(PROGRAM, 1, BLOCK, ints(2), DEADLINE);
		assertThat(this.blockStarted.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).as("handlers started").isTrue();

		CompletableFuture<InFlightTracker.ShutdownReport> shutdown = server.shutdown(DEADLINE);
		assertThat(server.dispatcher().inFlight().isAccepting()).isFalse();
		CompletableFuture<ReceivedReply> late = client.call(PROGRAM, 1, ADD, ints(1, 2), DEADLINE);
		CompletableFuture<RpcClient> newcomer = RpcClient.connect(this.clientProvider, this.clientPool,
				server.localAddress(), transportConfig(), 16);
		assertThat(failure(newcomer)).as("a new connection is refused").isNotNull();
		assertThat(shutdown).isNotDone();

		this.release.countDown();
		assertThat(intResult(await(one))).isEqualTo(1);
		assertThat(intResult(await(two))).isEqualTo(2);
		assertThat(await(shutdown).quiescent()).isTrue();
		assertThat(failure(late)).as("a call arriving during the shutdown").isInstanceOf(ConnectionLostException.class);
	}

	@Test
	void aPoolRetriesAnIdempotentCallOnAnotherConnectionAndReplacesTheLostOne() throws Exception {
		RpcServer server = server();
		CountDownLatch connects = new CountDownLatch(3);
		RpcClientPool pool = new RpcClientPool("e2e", () -> RpcClient
			.connect(this.clientProvider, this.clientPool, server.localAddress(), transportConfig(), 16)
			.thenApply((client) -> {
				this.closeables.add(client);
				connects.countDown();
				return client;
			}), RpcClientPool.Config.of(2, 2), CallTimer.shared());
		this.closeables.add(pool);
		assertThat(intResult(await(pool.call(PROGRAM, 1, ADD, ints(1, 2), true, DEADLINE)))).isEqualTo(3);

		this.blockStarted = new CountDownLatch(1);
		CompletableFuture<ReceivedReply> idempotent = pool.call(PROGRAM, 1, BLOCK, ints(7), true, DEADLINE);
		assertThat(this.blockStarted.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		this.blockStarted = new CountDownLatch(1);
		carrier(pool).close();
		// The retry runs the handler again on the other connection.
		assertThat(this.blockStarted.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).as("retried").isTrue();
		this.release.countDown();
		assertThat(intResult(await(idempotent))).isEqualTo(7);
		assertThat(this.blockExecutions).hasValue(2);
		assertThat(connects.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).as("the lost connection replaced")
			.isTrue();
		assertThat(pool.retries()).isEqualTo(1);
		assertThat(pool.transportStats().inlineMessages()).as("calls of the lost connection still count")
			.isEqualTo(3);
	}

	@Test
	void aPoolDoesNotRetryANonIdempotentCallLostWithItsConnection() throws Exception {
		RpcServer server = server();
		RpcClientPool pool = RpcClientPool.connect(this.clientProvider, this.clientPool, server.localAddress(),
				transportConfig(), 16, RpcClientPool.Config.of(1, 1));
		this.closeables.add(pool);
		assertThat(intResult(await(pool.call(PROGRAM, 1, ADD, ints(1, 2), true, DEADLINE)))).isEqualTo(3);
		byte[] data = new byte[20_000];
		data[0] = 1;
		byte[] echoed = await(pool.call(PROGRAM, 1, ECHO, (encoder) -> encoder.writeOpaque(data),
				new CallShape(data.length + 512, List.of(new DdpRange(4, data.length)), List.of(), data.length + 512),
				true, DEADLINE)
			.thenApply(RpcEndToEndTests::opaqueResult));
		assertThat(echoed).hasSize(data.length).startsWith((byte) ~1, (byte) ~0);
		this.blockStarted = new CountDownLatch(1);
		CompletableFuture<ReceivedReply> once = pool.call(PROGRAM, 1, BLOCK, ints(7), false, DEADLINE);
		assertThat(this.blockStarted.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

		carrier(pool).close();

		assertThat(failure(once)).isInstanceOf(ConnectionLostException.class);
		assertThat(this.blockExecutions).hasValue(1);
	}

	private static RpcClient carrier(RpcClientPool pool) {
		return pool.connections()
			.stream()
			.filter((client) -> client.pendingCalls() > 0)
			.findFirst()
			.orElseThrow(() -> new AssertionError("no connection carries the call"));
	}

	@Test
	void aPoolRemembersWhyConnectingFailed() {
		RpcClientPool pool = new RpcClientPool("refusing",
				() -> CompletableFuture.failedFuture(new ConnectionRefusedException("nobody listens")),
				new RpcClientPool.Config(1, 1, 1, Backoff.exponential(Duration.ofHours(1), Duration.ofHours(1)),
						RetryPolicy.none()),
				CallTimer.shared());
		this.closeables.add(pool);

		assertThat(pool.consecutiveFailures()).isEqualTo(1);
		assertThat(pool.lastFailure()).hasValueSatisfying(
				(failure) -> assertThat(failure).isInstanceOf(ConnectionRefusedException.class).hasMessage("nobody listens"));
		assertThat(pool.connections()).isEmpty();
		assertThat(pool.transportStats()).isEqualTo(TransportStats.ZERO);
	}

	@Test
	void aPoolWithoutAConnectionBoundsTheCallsWaitingForOne() throws Exception {
		CompletableFuture<RpcClient> never = new CompletableFuture<>();
		RpcClientPool pool = new RpcClientPool("nowhere", () -> never,
				new RpcClientPool.Config(1, 1, 1, Backoff.exponential(Duration.ofMillis(1), Duration.ofMillis(10)),
						RetryPolicy.none()),
				CallTimer.shared());
		this.closeables.add(pool);

		CompletableFuture<ReceivedReply> waiting = pool.call(PROGRAM, 1, ADD, ints(1, 2), true, Duration.ofMillis(200));
		CompletableFuture<ReceivedReply> refused = pool.call(PROGRAM, 1, ADD, ints(1, 2), true, DEADLINE);

		assertThat(refused).isCompletedExceptionally();
		assertThat(failure(refused)).isInstanceOf(PoolExhaustedException.class).hasMessageContaining("already wait");
		assertThat(failure(waiting)).isInstanceOf(PoolExhaustedException.class).hasMessageContaining("within");
	}

}

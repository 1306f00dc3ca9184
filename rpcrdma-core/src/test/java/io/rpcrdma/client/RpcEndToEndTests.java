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

	/** Takes a length and a seed; returns that many pattern bytes as a DDP-eligible opaque. */
	static final int GENERATE = 6;

	/** Returns what the requester offered: RPC-over-RDMA version, Write chunk capacities, Reply chunk. */
	static final int OFFER = 7;

	/** Takes a bulk opaque; returns its length and CRC-32, and notes what kind of memory it read. */
	static final int DIGEST = 8;

	/** Takes two bulk opaques; returns the CRC-32 of each. */
	static final int DIGEST2 = 9;

	static final int MIB = 1 << 20;

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

	final java.util.concurrent.atomic.AtomicBoolean digestArgumentDirect = new java.util.concurrent.atomic.AtomicBoolean();

	final AtomicInteger digestChunkLeasesDuringCall = new AtomicInteger(-1);

	volatile CountDownLatch release = new CountDownLatch(1);

	/** @return a newly opened provider of the kind under test */
	protected abstract RdmaProvider openProvider();

	/** @return where a test server listens; port 0 for any */
	protected abstract InetSocketAddress listenAddress();

	@BeforeEach
	void open() {
		this.serverProvider = openProvider();
		this.clientProvider = openProvider();
		MemoryPoolConfig pools = MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2)
			.withLeakTracking(true);
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
			.register(PROGRAM, 1, GENERATE, Idempotence.IDEMPOTENT, ProcedureHandler.of((call, arguments, results) -> {
				int length = arguments.readInt();
				int seed = arguments.readInt();
				call.writeDdpOpaque(results, ByteBuffer.wrap(pattern(length, seed)));
				if (seed < 0) {
					throw new IllegalStateException("asked to fail after writing its result");
				}
			}))
			.register(PROGRAM, 1, OFFER, Idempotence.IDEMPOTENT, ProcedureHandler.of((call, arguments, results) -> {
				results.writeInt(call.rdmaVersion());
				results.writeInt(call.writeChunkCapacities().size());
				for (long capacity : call.writeChunkCapacities()) {
					results.writeHyper(capacity);
				}
				results.writeHyper(call.replyChunkCapacity());
			}))
			.register(PROGRAM, 1, DIGEST, Idempotence.IDEMPOTENT, ProcedureHandler.of((call, arguments, results) -> {
				ByteBuffer bulk = arguments.readOpaque(Integer.MAX_VALUE);
				this.digestArgumentDirect.set(bulk.isDirect());
				this.digestChunkLeasesDuringCall.set(chunkBuffersLeased(this.serverPool));
				results.writeInt(bulk.remaining());
				results.writeHyper(crc(bulk));
			}))
			.register(PROGRAM, 1, DIGEST2, Idempotence.IDEMPOTENT, ProcedureHandler.of((call, arguments, results) -> {
				ByteBuffer first = arguments.readOpaque(Integer.MAX_VALUE);
				ByteBuffer second = arguments.readOpaque(Integer.MAX_VALUE);
				results.writeHyper(crc(first));
				results.writeHyper(crc(second));
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
		CallChunks ddp = new CallChunks(data.length + 1024, List.of(new DdpRange(4, data.length)), List.of(),
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
		CallChunks ddp = new CallChunks(data.length + 1024, List.of(new DdpRange(4, data.length)), List.of(),
				data.length + 1024);
		byte[] echoed = await(client.call(PROGRAM, 1, ECHO, (encoder) -> encoder.writeOpaque(data), ddp, DEADLINE)
			.thenApply(RpcEndToEndTests::opaqueResult));
		// A long call without DDP items goes whole in a position-zero Read chunk.
		byte[] again = await(client.call(PROGRAM, 1, ECHO, (encoder) -> encoder.writeOpaque(data),
				CallChunks.of(data.length + 1024, data.length + 1024), DEADLINE)
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
				new CallChunks(data.length + 512, List.of(new DdpRange(4, data.length)), List.of(), data.length + 512),
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

	static byte[] pattern(int length, int seed) {
		byte[] data = new byte[length];
		for (int i = 0; i < length; i++) {
			data[i] = (byte) (i * 31 + seed + (i >>> 10));
		}
		return data;
	}

	static long crc(ByteBuffer data) {
		java.util.zip.CRC32 crc = new java.util.zip.CRC32();
		crc.update(data.duplicate());
		return crc.getValue();
	}

	/** Buffers of the chunk roles (Read, Write, local bulk) still leased from a pool. */
	static int chunkBuffersLeased(RegisteredMemoryPool pool) {
		int leased = 0;
		for (io.rpcrdma.memory.SizeClassStats stats : pool.stats().sizeClasses()) {
			if (stats.role() != io.rpcrdma.memory.BufferRole.RECEIVE && stats.role() != io.rpcrdma.memory.BufferRole.SEND) {
				leased += stats.leased();
			}
		}
		return leased;
	}

	/** Waits, up to the deadline, for both pools to have every chunk buffer back. */
	void assertNoChunkBufferLeased() {
		long end = System.nanoTime() + DEADLINE.toNanos();
		while (chunkBuffersLeased(this.serverPool) + chunkBuffersLeased(this.clientPool) > 0) {
			if (System.nanoTime() > end) {
				throw new AssertionError("Chunk buffers still leased: server " + chunkBuffersLeased(this.serverPool)
						+ ", client " + chunkBuffersLeased(this.clientPool) + "; leaks " + this.serverPool.leaks()
						+ this.clientPool.leaks());
			}
			java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
		}
	}

	@Test
	void aReplyLargerThanTheCallCanReceiveFailsThatCallAtOnceWithReplyTooLarge() throws Exception {
		int generate = 77;
		RpcServer server = RpcServer.start(
				RpcServer.Config.defaults(this.serverProvider, this.serverPool, listenAddress())
					.withTransport(transportConfig()),
				registry().register(PROGRAM, 1, generate, Idempotence.IDEMPOTENT,
						ProcedureHandler.of((call, arguments, results) -> results.writeOpaque(new byte[arguments.readInt()]))));
		this.closeables.add(() -> server.shutdown(Duration.ZERO).get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS));
		RpcClient client = client(server);

		// The reply outgrows the server's reply buffer: no Reply chunk was offered for it.
		Throwable failure = failure(
				client.call(PROGRAM, 1, generate, ints(20_000), CallChunks.of(1024, 0), Duration.ofHours(1)));

		assertThat(failure).isInstanceOf(io.rpcrdma.transport.ReplyTooLargeException.class)
			.hasMessageContaining("maxReplySize");
		// Offered a Reply chunk that holds it, the same call succeeds.
		byte[] result = await(client.call(PROGRAM, 1, generate, ints(20_000), CallChunks.of(1024, 21_000), DEADLINE)
			.thenApply(RpcEndToEndTests::opaqueResult));
		assertThat(result).hasSize(20_000);
		assertThat(client.pendingCalls()).isZero();
	}

	@Test
	void aPoolClosesAConnectionAboveItsMinimumOnceItHasBeenIdleLongEnough() throws Exception {
		RpcServer server = server();
		RpcClientPool pool = new RpcClientPool("e2e", () -> RpcClient
			.connect(this.clientProvider, this.clientPool, server.localAddress(), transportConfig(), 16)
			.thenApply((client) -> {
				this.closeables.add(client);
				return client;
			}), RpcClientPool.Config.of(1, 2).withIdleTimeout(Duration.ofMillis(100)), CallTimer.shared());
		this.closeables.add(pool);
		// Until its first reply a connection has one credit: a blocked call uses it up, so the
		// next call makes the pool open a second connection.
		this.blockStarted = new CountDownLatch(1);
		CompletableFuture<ReceivedReply> blocked = pool.call(PROGRAM, 1, BLOCK, ints(7), true, DEADLINE);
		assertThat(this.blockStarted.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		CompletableFuture<ReceivedReply> queued = pool.call(PROGRAM, 1, ADD, ints(1, 2), true, DEADLINE);
		awaitPoolSize(pool, 2, "a second connection opened under load");
		this.release.countDown();
		assertThat(intResult(await(blocked))).isEqualTo(7);
		assertThat(intResult(await(queued))).isEqualTo(3);

		awaitPoolSize(pool, 1, "the idle connection above the minimum closed");

		RpcClient remaining = pool.connections().get(0);
		assertThat(remaining.isOpen()).isTrue();
		assertThat(intResult(await(pool.call(PROGRAM, 1, ADD, ints(2, 2), true, DEADLINE)))).isEqualTo(4);
		assertThat(pool.connections()).containsExactly(remaining);
	}

	/**
	 * A pool whose connection attempts are counted, as they start; the first connection is open
	 * and has its credit grant (one reply) before it returns.
	 */
	private RpcClientPool countingPool(RpcServer server, RpcClientPool.Config config, AtomicInteger connects,
			int succeeding) throws Exception {
		RpcClientPool pool = new RpcClientPool("growing", () -> {
			if (connects.incrementAndGet() > succeeding) {
				return CompletableFuture.failedFuture(new ConnectionRefusedException("no more from this host"));
			}
			return RpcClient.connect(this.clientProvider, this.clientPool, server.localAddress(), transportConfig(), 16)
				.thenApply((client) -> {
					this.closeables.add(client);
					return client;
				});
		}, config, CallTimer.shared());
		this.closeables.add(pool);
		assertThat(intResult(await(pool.call(PROGRAM, 1, ADD, ints(1, 2), true, DEADLINE)))).isEqualTo(3);
		return pool;
	}

	private List<CompletableFuture<ReceivedReply>> blockedCalls(RpcClientPool pool, int calls) throws Exception {
		this.blockStarted = new CountDownLatch(calls);
		List<CompletableFuture<ReceivedReply>> blocked = new ArrayList<>();
		for (int i = 0; i < calls; i++) {
			blocked.add(pool.call(PROGRAM, 1, BLOCK, ints(i), true, DEADLINE));
		}
		return blocked;
	}

	private void releaseAndAwait(List<CompletableFuture<ReceivedReply>> blocked) throws Exception {
		this.release.countDown();
		for (int i = 0; i < blocked.size(); i++) {
			assertThat(intResult(await(blocked.get(i)))).isEqualTo(i);
		}
	}

	@Test
	void aPoolOpensAConnectionForEachConcurrentCallerUpToItsMaximumAndSpreadsCallsOverThem() throws Exception {
		RpcServer server = server();
		AtomicInteger connects = new AtomicInteger();
		RpcClientPool pool = countingPool(server, RpcClientPool.Config.of(1, 3), connects, Integer.MAX_VALUE);
		for (int i = 0; i < 20; i++) {
			assertThat(intResult(await(pool.call(PROGRAM, 1, ADD, ints(i, 1), true, DEADLINE)))).isEqualTo(i + 1);
		}
		assertThat(connects).as("one caller at a time needs one connection").hasValue(1);

		List<CompletableFuture<ReceivedReply>> first = blockedCalls(pool, 4);
		assertThat(connects).as("the second and third caller at once each open one; the fourth finds the maximum")
			.hasValue(3);
		assertThat(this.blockStarted.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		awaitPoolSize(pool, 3, "the connections for the concurrent callers opened");
		releaseAndAwait(first);

		this.release = new CountDownLatch(1);
		List<CompletableFuture<ReceivedReply>> spread = blockedCalls(pool, 3);
		assertThat(this.blockStarted.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		assertThat(pool.connections()).as("three callers at once, one on each connection")
			.allSatisfy((client) -> assertThat(client.pendingCalls()).isEqualTo(1));
		releaseAndAwait(spread);
		assertThat(connects).hasValue(3);
	}

	@Test
	void aPoolOpensAnotherConnectionOnlyOnceEveryOneCarriesItsCallsPerConnection() throws Exception {
		RpcServer server = server();
		AtomicInteger connects = new AtomicInteger();
		RpcClientPool pool = countingPool(server, RpcClientPool.Config.of(1, 4).withCallsPerConnection(2), connects,
				Integer.MAX_VALUE);

		List<CompletableFuture<ReceivedReply>> two = blockedCalls(pool, 2);
		assertThat(connects).as("two calls fit on one connection").hasValue(1);
		CompletableFuture<ReceivedReply> third = pool.call(PROGRAM, 1, ADD, ints(2, 2), true, DEADLINE);
		assertThat(connects).as("the third finds it carrying two").hasValue(2);

		assertThat(intResult(await(third))).isEqualTo(4);
		releaseAndAwait(two);
	}

	@Test
	void aPoolWhoseAttemptToOpenOneMoreFailsTriesAgainOnlyAfterItsReconnectDelay() throws Exception {
		RpcServer server = server();
		AtomicInteger connects = new AtomicInteger();
		Backoff hour = Backoff.exponential(Duration.ofHours(1), Duration.ofHours(1));
		RpcClientPool pool = countingPool(server, new RpcClientPool.Config(1, 4, 64, hour, RetryPolicy.none()), connects,
				1);

		// Four: the server's executor runs four blocked calls at once.
		List<CompletableFuture<ReceivedReply>> crowded = blockedCalls(pool, 4);

		assertThat(connects).as("one refused attempt, not one per crowded call").hasValue(2);
		assertThat(pool.connections()).hasSize(1);
		assertThat(this.blockStarted.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).as("all on the open one")
			.isTrue();
		releaseAndAwait(crowded);
		assertThat(connects).hasValue(2);
	}

	/** Polls observable pool state until the deadline; no fixed sleep decides the outcome. */
	private static void awaitPoolSize(RpcClientPool pool, int size, String what) {
		long end = System.nanoTime() + DEADLINE.toNanos();
		while (pool.connections().size() != size) {
			if (System.nanoTime() > end) {
				throw new AssertionError("Not within " + DEADLINE + ": " + what + " (" + pool.connections().size()
						+ " connections)");
			}
			java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
		}
	}

	static io.rpcrdma.transport.TransportStats clientStats(RpcClient client) {
		return ((RpcRdmaClientConnection) client.transport()).stats();
	}

	static io.rpcrdma.transport.TransportStats serverStats(RpcServer server) {
		return server.transport().connections().get(0).stats();
	}

	@Test
	void aHandlerSeesTheWriteAndReplyChunksTheRequesterOffered() throws Exception {
		RpcServer server = server();
		RpcClient client = client(server);

		ReceivedReply reply = await(client.call(PROGRAM, 1, OFFER, CallBody.NONE,
				new CallChunks(512, List.of(), List.of(8192, 65_536), 20_000), DEADLINE));
		try {
			assertThat(reply.results().readInt()).as("RPC-over-RDMA version").isEqualTo(2);
			assertThat(reply.results().readInt()).as("Write chunks").isEqualTo(2);
			assertThat(reply.results().readHyper()).isEqualTo(8192);
			assertThat(reply.results().readHyper()).isEqualTo(65_536);
			assertThat(reply.results().readHyper()).as("Reply chunk").isEqualTo(20_000);
		}
		finally {
			reply.release();
		}
		assertNoChunkBufferLeased();
	}

	@Test
	void aDdpEligibleResultTravelsInTheOfferedWriteChunkFrom1KiBTo16MiB() throws Exception {
		RpcServer server = server();
		RpcClient client = client(server);
		int[] sizes = { 1024, 65_536 + 3, MIB, 16 * MIB };
		for (int i = 0; i < sizes.length; i++) {
			int size = sizes[i];
			ReceivedReply reply = await(client.call(PROGRAM, 1, GENERATE, ints(size, i),
					new CallChunks(512, List.of(), List.of(size), 0), DEADLINE));
			try {
				// RFC 8166 §3.4.6: only the length word stays in the reply; the data is in the chunk.
				assertThat(reply.results().remaining()).as("inline results for " + size).isEqualTo(4);
				assertThat(reply.writeChunk(0).remaining()).isEqualTo(size);
				ByteBuffer data = reply.readDdpOpaque(0, Integer.MAX_VALUE);
				byte[] bytes = new byte[data.remaining()];
				data.get(bytes);
				assertThat(bytes).as("result of " + size + " bytes").isEqualTo(pattern(size, i));
			}
			finally {
				reply.release();
			}
		}
		assertThat(serverStats(server).writeChunksFilled()).isEqualTo(sizes.length);
		assertThat(serverStats(server).replyChunksFilled()).isZero();
		assertNoChunkBufferLeased();
	}

	@Test
	void aDdpEligibleResultLargerThanTheOfferedWriteChunkGoesInTheReplyChunk() throws Exception {
		RpcServer server = server();
		RpcClient client = client(server);

		ReceivedReply reply = await(client.call(PROGRAM, 1, GENERATE, ints(30_000, 5),
				new CallChunks(512, List.of(), List.of(4096), 31_000), DEADLINE));
		try {
			assertThat(reply.writeChunk(0).remaining()).as("the unused Write chunk comes back empty").isZero();
			ByteBuffer data = reply.readDdpOpaque(0, Integer.MAX_VALUE);
			byte[] bytes = new byte[data.remaining()];
			data.get(bytes);
			assertThat(bytes).isEqualTo(pattern(30_000, 5));
		}
		finally {
			reply.release();
		}
		assertThat(serverStats(server).writeChunksFilled()).isZero();
		assertThat(serverStats(server).replyChunksFilled()).isEqualTo(1);
		assertNoChunkBufferLeased();
	}

	@Test
	void aFailingHandlerDiscardsItsDdpMarks() throws Exception {
		RpcServer server = server();
		RpcClient client = client(server);

		// GENERATE with a negative seed fails after marking its result: the SYSTEM_ERR reply
		// carries no DDP item, so nothing is written into the offered chunk.
		assertThat(failure(client.call(PROGRAM, 1, GENERATE, ints(5000, -1),
				new CallChunks(512, List.of(), List.of(4096), 0), DEADLINE)))
			.isInstanceOf(RemoteSystemErrorException.class);
		assertThat(serverStats(server).writeChunksFilled()).isZero();
		assertNoChunkBufferLeased();
	}

	@Test
	void aBulkArgumentReachesTheHandlerAsAViewOfRegisteredMemoryFrom1KiBTo16MiB() throws Exception {
		RpcServer server = server();
		RpcClient client = client(server);
		int[] sizes = { 1024, 65_536 + 1, MIB, 8 * MIB, 16 * MIB };
		for (int i = 0; i < sizes.length; i++) {
			int size = sizes[i];
			byte[] data = pattern(size, i);
			this.digestChunkLeasesDuringCall.set(-1);
			ReceivedReply reply = await(client.call(PROGRAM, 1, DIGEST, (encoder) -> encoder.writeOpaque(data),
					new CallChunks(size + 512, List.of(new DdpRange(4, size)), List.of(), 0), DEADLINE));
			try {
				assertThat(reply.results().readInt()).isEqualTo(size);
				assertThat(reply.results().readHyper()).as("CRC of " + size + " bytes").isEqualTo(crc(ByteBuffer.wrap(data)));
			}
			finally {
				reply.release();
			}
			boolean fitsOneBuffer = size + 512 <= 16 * MIB;
			// The call was rebuilt in one registered local buffer the Read chunk was pulled into:
			// the handler's opaque is a view of it. A message larger than the largest buffer is
			// rebuilt on the heap instead.
			assertThat(this.digestArgumentDirect.get()).as("argument of " + size + " bytes in registered memory")
				.isEqualTo(fitsOneBuffer);
			if (fitsOneBuffer) {
				assertThat(this.digestChunkLeasesDuringCall.get()).as("the message's buffer, leased during the call")
					.isEqualTo(1);
			}
			// ...and it went back to the pool once the call was answered.
			assertNoChunkBufferLeased();
		}
		assertThat(clientStats(client).readChunksSent()).isEqualTo(sizes.length);
		assertThat(serverStats(server).readChunksPulled()).isEqualTo(sizes.length);
	}

	@Test
	void aCallersRegisteredBufferIsReadStraightFromItsMemoryFrom1KiBTo16MiB() throws Exception {
		RpcServer server = server();
		RpcClient client = client(server);
		int[] sizes = { 1024, 65_536 + 2, MIB, 16 * MIB };
		for (int i = 0; i < sizes.length; i++) {
			int size = sizes[i];
			byte[] data = pattern(size, i);
			io.rpcrdma.memory.RegisteredBuffer argument = this.clientPool.lease(io.rpcrdma.memory.BufferRole.READ_CHUNK,
					size);
			argument.buffer().put(0, data);
			long readChunkLeases = readChunkLeases(this.clientPool);
			// The arguments hold only the length word: 64 bytes of call, whatever the size.
			CallChunks shape = CallChunks.of(64 + 40, 0).withRegisteredArgument(4, argument, size);
			ReceivedReply reply = await(client.call(PROGRAM, 1, DIGEST, (encoder) -> encoder.writeInt(size), shape,
					DEADLINE));
			try {
				assertThat(reply.results().readInt()).isEqualTo(size);
				assertThat(reply.results().readHyper()).as("CRC of " + size + " bytes").isEqualTo(crc(ByteBuffer.wrap(data)));
			}
			finally {
				reply.release();
			}
			assertThat(readChunkLeases(this.clientPool)).as("no Read chunk buffer leased to copy the argument into")
				.isEqualTo(readChunkLeases);
			assertThat(argument.isLeased()).as("the caller's buffer stays the caller's").isTrue();
			argument.release();
		}
		assertThat(clientStats(client).readChunksSent()).isEqualTo(sizes.length);
		assertThat(clientStats(client).positionZeroChunksSent()).isZero();
		assertThat(serverStats(server).readChunksPulled()).isEqualTo(sizes.length);
		assertNoChunkBufferLeased();
	}

	@Test
	void registeredArgumentsAmongEncodedOnesKeepTheirXdrPositions() throws Exception {
		RpcServer server = server();
		RpcClient client = client(server);
		byte[] first = pattern(3001, 1);
		byte[] second = pattern(20_000, 2);
		io.rpcrdma.memory.RegisteredBuffer argument = this.clientPool.lease(io.rpcrdma.memory.BufferRole.READ_CHUNK,
				first.length);
		argument.buffer().put(0, first);
		// ECHO2 reads two opaques; the first from the caller's buffer, the second encoded and
		// moved into a Read chunk by the transport: its position counts the first one's data.
		CallChunks shape = new CallChunks(second.length + 512, List.of(new DdpRange(8, second.length)), List.of(), 0)
			.withRegisteredArgument(4, argument, first.length);
		ReceivedReply reply = await(client.call(PROGRAM, 1, DIGEST2, (encoder) -> {
			encoder.writeInt(first.length);
			encoder.writeOpaque(second);
		}, shape, DEADLINE));
		try {
			assertThat(reply.results().readHyper()).isEqualTo(crc(ByteBuffer.wrap(first)));
			assertThat(reply.results().readHyper()).isEqualTo(crc(ByteBuffer.wrap(second)));
		}
		finally {
			reply.release();
			argument.release();
		}
		assertThat(clientStats(client).readChunksSent()).isEqualTo(2);
		assertNoChunkBufferLeased();
	}

	@Test
	void aRegisteredArgumentInABufferThePeerMayNotReadIsRefused() throws Exception {
		io.rpcrdma.memory.RegisteredBuffer local = this.clientPool.lease(io.rpcrdma.memory.BufferRole.LOCAL_BULK, 4096);
		try {
			org.assertj.core.api.Assertions.assertThatThrownBy(() -> CallChunks.of(128, 0)
				.withRegisteredArgument(4, local, 4096))
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("BufferRole.READ_CHUNK");
		}
		finally {
			local.release();
		}
	}

	static long readChunkLeases(RegisteredMemoryPool pool) {
		long leases = 0;
		for (io.rpcrdma.memory.SizeClassStats stats : pool.stats().sizeClasses()) {
			if (stats.role() == io.rpcrdma.memory.BufferRole.READ_CHUNK) {
				leases += stats.leases();
			}
		}
		return leases;
	}

}

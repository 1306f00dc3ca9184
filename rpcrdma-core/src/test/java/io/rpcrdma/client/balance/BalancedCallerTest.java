package io.rpcrdma.client.balance;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.client.Backoff;
import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.CallChunks;
import io.rpcrdma.client.CallTimer;
import io.rpcrdma.client.ConnectionLostException;
import io.rpcrdma.client.ReceivedReply;
import io.rpcrdma.client.RetryPolicy;
import io.rpcrdma.client.RpcClient;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.Idempotence;
import io.rpcrdma.server.ProcedureHandler;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * {@link BalancedCaller} over real in-process servers on the loopback provider: failover,
 * ejection and return, refresh with calls in flight. Every server counts what it executed, by
 * call id, so lost and duplicated calls show.
 */
class BalancedCallerTest {

	static final int PROGRAM = 0x2000_0B01;

	/** Records its argument (a call id); idempotent. Waits at the server's gate first. */
	static final int RECORD = 1;

	/** The same, not idempotent. */
	static final int RECORD_ONCE = 2;

	static final Duration DEADLINE = Duration.ofSeconds(10);

	private RdmaProvider serverProvider;

	private RdmaProvider clientProvider;

	private RegisteredMemoryPool serverMemory;

	private RegisteredMemoryPool clientMemory;

	private final List<AutoCloseable> closeables = Collections.synchronizedList(new ArrayList<>());

	private final List<Server> servers = new ArrayList<>();

	/** Each call id once per execution, whichever server ran it. */
	private final Map<Integer, AtomicInteger> executions = new ConcurrentHashMap<>();

	private final AtomicInteger ids = new AtomicInteger();

	@BeforeEach
	void open() {
		this.serverProvider = RdmaProviders.open("loopback");
		this.clientProvider = RdmaProviders.open("loopback");
		MemoryPoolConfig memory = MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2);
		this.serverMemory = new RegisteredMemoryPool(this.serverProvider.allocateProtectionDomain(), memory);
		this.clientMemory = new RegisteredMemoryPool(this.clientProvider.allocateProtectionDomain(), memory);
	}

	@AfterEach
	void closeAll() throws Exception {
		for (Server server : this.servers) {
			server.gate.countDown();
		}
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
		for (Server server : this.servers) {
			server.stop();
		}
		this.clientProvider.close();
		this.serverProvider.close();
	}

	/** One in-process server: stops as if it crashed, starts again on the same port. */
	final class Server {

		final String name;

		final AtomicInteger executed = new AtomicInteger();

		/** Calls that reached the handler, gate or not. */
		final AtomicInteger arrived = new AtomicInteger();

		/** Counted down as each call reaches the handler, before the gate. */
		volatile CountDownLatch arrivals = new CountDownLatch(0);

		/** Calls wait here; open unless a test closes it. */
		volatile CountDownLatch gate = new CountDownLatch(0);

		/** Once set, a call past the gate executes nothing: the server died first. */
		volatile boolean crashed;

		private volatile RpcServer running;

		private volatile InetSocketAddress address;

		Server(String name) {
			this.name = name;
			start(0);
		}

		void start(int port) {
			this.crashed = false;
			this.running = RpcServer.start(
					RpcServer.Config.defaults(BalancedCallerTest.this.serverProvider, BalancedCallerTest.this.serverMemory,
							InetSocketAddress.createUnresolved("balance-" + this.name, port))
						.withTransport(TransportConfig.defaults().withCredits(8, 8, 12))
						.withExecutor(new RpcServer.ExecutorSpec(RpcServer.ExecutorKind.BOUNDED_POOL, 16, 64)),
					new ProgramRegistry()
						.register(PROGRAM, 1, RECORD, Idempotence.IDEMPOTENT, ProcedureHandler.of(this::record))
						.register(PROGRAM, 1, RECORD_ONCE, ProcedureHandler.of(this::record)));
			this.address = this.running.localAddress();
		}

		private void record(io.rpcrdma.server.ServerCall call, io.rpcrdma.xdr.XdrDecoder arguments,
				io.rpcrdma.xdr.XdrEncoder results) throws Exception {
			int id = arguments.readInt();
			this.arrived.incrementAndGet();
			this.arrivals.countDown();
			if (!this.gate.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException("the gate never opened");
			}
			if (this.crashed) {
				throw new IllegalStateException("crashed before executing call " + id);
			}
			this.executed.incrementAndGet();
			BalancedCallerTest.this.executions.computeIfAbsent(id, (key) -> new AtomicInteger()).incrementAndGet();
			results.writeInt(id);
		}

		/** Stops at once: connections close with calls on them, which then execute nothing. */
		void crash() throws Exception {
			this.crashed = true;
			stop();
		}

		void stop() throws Exception {
			this.running.shutdown(Duration.ZERO).get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
		}

		void restart() {
			start(this.address.getPort());
		}

		ServerInstance instance() {
			return new ServerInstance(this.name, this.address, Map.of("zone", "test"));
		}

	}

	Server server(String name) {
		Server server = new Server(name);
		this.servers.add(server);
		return server;
	}

	/** Pools that do not retry themselves, reconnecting quickly. */
	InstancePools pools() {
		return (instance) -> new RpcClientPool(instance.id(),
				() -> RpcClient.connect(this.clientProvider, this.clientMemory, instance.address(),
						TransportConfig.defaults().withCredits(8, 8, 12), 64),
				new RpcClientPool.Config(1, 2, 64, new Backoff(Duration.ofMillis(1), Duration.ofMillis(20), 2.0, 0.0,
						new Random(1)), RetryPolicy.none()),
				CallTimer.shared());
	}

	BalancedCaller caller(InstanceSource source, BalancerKind kind, Ejection ejection) {
		BalancedCaller.Config config = new BalancedCaller.Config(kind, ejection,
				new RetryPolicy(3, new Backoff(Duration.ofMillis(5), Duration.ofMillis(50), 2.0, 0.0, new Random(1))));
		BalancedCaller caller = new BalancedCaller("test client", source, pools(), UnaryOperator.identity(), config,
				kind.create(new SplittableRandom(5)), CallTimer.shared());
		this.closeables.add(caller);
		return caller;
	}

	static Ejection ejection(int failures) {
		return new Ejection(failures, new Backoff(Duration.ofMillis(10), Duration.ofMillis(50), 2.0, 0.0, new Random(1)),
				Duration.ofSeconds(2));
	}

	CompletableFuture<ReceivedReply> record(BalancedCaller caller, boolean idempotent) {
		int id = this.ids.incrementAndGet();
		CallBody body = (encoder) -> encoder.writeInt(id);
		return caller.call(PROGRAM, 1, idempotent ? RECORD : RECORD_ONCE, body, CallChunks.of(1024, 0), idempotent,
				DEADLINE);
	}

	static int result(CompletableFuture<ReceivedReply> future) throws Exception {
		ReceivedReply reply = future.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
		try {
			return reply.results().readInt();
		}
		finally {
			reply.release();
		}
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

	static void await(CountDownLatch latch, String what) throws InterruptedException {
		assertThat(latch.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).as(what).isTrue();
	}

	/** Polls observable state until the deadline; no fixed sleep decides the outcome. */
	static void awaitState(BooleanSupplier condition, String what) {
		long end = System.nanoTime() + DEADLINE.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > end) {
				throw new AssertionError("Not within " + DEADLINE + ": " + what);
			}
			java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
		}
	}

	static InstanceStats stats(BalancedCaller caller, String id) {
		return caller.instanceStats()
			.stream()
			.filter((stats) -> stats.instance().id().equals(id))
			.findFirst()
			.orElse(null);
	}

	/** Each warm-up call goes to the next instance, so every pool has a connection after. */
	void warmUp(BalancedCaller caller, int instances) throws Exception {
		for (int i = 0; i < instances; i++) {
			result(record(caller, true));
		}
	}

	void assertEachCallExecutedOnce(int calls) {
		assertThat(this.executions).hasSize(calls);
		assertThat(this.executions.values()).allSatisfy((count) -> assertThat(count).hasValue(1));
	}

	@Test
	void idempotentCallsOnACrashedInstanceFailOverToTheLiveOneWithNoneLostOrDuplicated() throws Exception {
		Server a = server("a");
		Server b = server("b");
		BalancedCaller caller = caller(InstanceSource.of(List.of(a.instance(), b.instance())), BalancerKind.ROUND_ROBIN,
				ejection(100));
		warmUp(caller, 2);
		// Within one connection's credits (8 after its first reply), so that none waits for a
		// second connection.
		int calls = 12;
		a.gate = new CountDownLatch(1);
		CountDownLatch reached = new CountDownLatch(calls);
		a.arrivals = reached;
		b.arrivals = reached;
		List<CompletableFuture<ReceivedReply>> futures = new ArrayList<>();
		for (int i = 0; i < calls; i++) {
			futures.add(record(caller, true));
		}
		await(reached, "every call reached a server");
		// Counted on arrival: b may not have finished executing its share yet.
		int stuckOnA = a.arrived.get() - 1;
		assertThat(stuckOnA).as("round robin sent half to a").isEqualTo(calls / 2);

		a.crash();
		a.gate.countDown();

		for (int i = 0; i < calls; i++) {
			assertThat(result(futures.get(i))).isEqualTo(i + 3);
		}
		assertEachCallExecutedOnce(calls + 2);
		assertThat(a.executed).as("warm-up only").hasValue(1);
		assertThat(b.executed).hasValue(1 + calls);
		assertThat(caller.failovers()).isEqualTo(calls / 2);
	}

	@Test
	void aNonIdempotentCallLostWithItsConnectionFailsSayingItMayHaveRunAndIsNotSentAgain() throws Exception {
		Server a = server("a");
		Server b = server("b");
		BalancedCaller caller = caller(InstanceSource.of(List.of(a.instance(), b.instance())), BalancerKind.ROUND_ROBIN,
				ejection(100));
		warmUp(caller, 2);
		a.gate = new CountDownLatch(1);
		a.arrivals = new CountDownLatch(1);
		CompletableFuture<ReceivedReply> onA = record(caller, false);
		await(a.arrivals, "the call reached a");

		a.crash();
		a.gate.countDown();

		assertThat(failure(onA)).isInstanceOf(ConnectionLostException.class)
			.hasMessageContaining("may or may not have executed");
		assertThat(b.executed).as("not sent again to b").hasValue(1);
		assertThat(caller.failovers()).isZero();
	}

	@Test
	void aNonIdempotentCallThatCouldNotLeaveGoesToAnotherInstanceOnce() throws Exception {
		Server a = server("a");
		Server b = server("b");
		BalancedCaller caller = caller(InstanceSource.of(List.of(a.instance(), b.instance())), BalancerKind.ROUND_ROBIN,
				ejection(100));
		warmUp(caller, 2);
		a.stop();
		RpcClientPool poolOfA = caller.openPools().get(a.instance());
		awaitState(poolOfA::isUnreachable, "a's pool saw its connection go");

		for (int i = 0; i < 4; i++) {
			result(record(caller, false));
		}

		assertThat(b.executed).hasValue(1 + 4);
		assertEachCallExecutedOnce(2 + 4);
		assertThat(stats(caller, "a").consecutiveFailures()).as("a passed over, each time counted").isGreaterThan(0);
	}

	@Test
	void anInstanceIsEjectedAfterConsecutiveFailuresAndComesBackAfterAProbe() throws Exception {
		Server a = server("a");
		Server b = server("b");
		BalancedCaller caller = caller(InstanceSource.of(List.of(a.instance(), b.instance())), BalancerKind.ROUND_ROBIN,
				ejection(3));
		warmUp(caller, 2);
		assertThat(stats(caller, "a").state()).isEqualTo(InstanceState.UP);

		a.stop();
		awaitState(caller.openPools().get(a.instance())::isUnreachable, "a's pool saw its connection go");
		for (int i = 0; i < 10; i++) {
			result(record(caller, true));
		}
		InstanceStats ejected = stats(caller, "a");
		assertThat(ejected.state()).isIn(InstanceState.EJECTED, InstanceState.PROBING);
		assertThat(ejected.consecutiveFailures()).isGreaterThanOrEqualTo(3);
		assertThat(ejected.lastFailure()).isNotNull();
		assertThat(ejected.lastFailureTime()).isNotNull();
		assertThat(a.executed).as("nothing reached a while it was down").hasValue(1);

		a.restart();
		awaitState(() -> stats(caller, "a").state() == InstanceState.UP, "a probed back");
		assertThat(stats(caller, "a").consecutiveFailures()).isZero();
		for (int i = 0; i < 10; i++) {
			result(record(caller, true));
		}
		assertThat(a.executed).as("a takes calls again").hasValue(1 + 5);
		assertEachCallExecutedOnce(2 + 10 + 10);
	}

	@Test
	void withEveryInstanceOutACallFailsAtOnceNamingThemAndTheirLastFailures() throws Exception {
		Server a = server("a");
		BalancedCaller caller = caller(InstanceSource.of(List.of(a.instance())), BalancerKind.ROUND_ROBIN, ejection(1));
		warmUp(caller, 1);
		a.stop();
		awaitState(caller.openPools().get(a.instance())::isUnreachable, "a's pool saw its connection go");

		// A deadline of an hour: only failing fast ends the call within the test's deadline.
		CompletableFuture<ReceivedReply> call = caller.call(PROGRAM, 1, RECORD, (encoder) -> encoder.writeInt(-1),
				CallChunks.of(1024, 0), true, Duration.ofHours(1));

		Throwable failure = failure(call);
		assertThat(failure).isInstanceOf(NoInstanceAvailableException.class)
			.hasMessageContaining("No instance of test client can take program 0x" + Integer.toHexString(PROGRAM) + " version 1 procedure 1")
			.hasMessageContaining("a (balance-a:" + a.address.getPort() + ") EJECTED after 1 consecutive failures");
		assertThat(((NoInstanceAvailableException) failure).instances()).singleElement()
			.satisfies((stats) -> assertThat(stats.state()).isIn(InstanceState.EJECTED, InstanceState.PROBING));
	}

	@Test
	void leastOutstandingSendsCallsToTheIdleInstanceAddedByARefresh() throws Exception {
		Server a = server("a");
		Server b = server("b");
		UpdatableInstanceSource source = new UpdatableInstanceSource(List.of(a.instance()));
		BalancedCaller caller = caller(source, BalancerKind.LEAST_OUTSTANDING, ejection(100));
		// The first reply grants the connection its credits (RFC 8166 §3.3.1): room for three calls.
		warmUp(caller, 1);
		a.gate = new CountDownLatch(1);
		a.arrivals = new CountDownLatch(3);
		List<CompletableFuture<ReceivedReply>> held = List.of(record(caller, true), record(caller, true),
				record(caller, true));
		await(a.arrivals, "three calls held on a");
		assertThat(stats(caller, "a").outstanding()).isEqualTo(3);

		source.update(List.of(a.instance(), b.instance()));
		for (int i = 0; i < 5; i++) {
			result(record(caller, true));
		}

		assertThat(b.executed).as("every new call went to the idle instance").hasValue(5);
		a.gate.countDown();
		for (CompletableFuture<ReceivedReply> future : held) {
			result(future);
		}
		assertThat(a.executed).hasValue(1 + 3);
		assertEachCallExecutedOnce(1 + 3 + 5);
	}

	@Test
	void aRefreshRemovingAnInstanceDrainsItsCallsInFlightAndThenClosesItsPool() throws Exception {
		Server a = server("a");
		Server b = server("b");
		UpdatableInstanceSource source = new UpdatableInstanceSource(List.of(a.instance(), b.instance()));
		BalancedCaller caller = caller(source, BalancerKind.ROUND_ROBIN, ejection(100));
		warmUp(caller, 2);
		RpcClientPool poolOfA = caller.openPools().get(a.instance());
		a.gate = new CountDownLatch(1);
		a.arrivals = new CountDownLatch(3);
		List<CompletableFuture<ReceivedReply>> futures = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			futures.add(record(caller, i % 2 == 0));
		}
		await(a.arrivals, "three calls held on a");

		source.update(List.of(b.instance()));

		assertThat(stats(caller, "a")).satisfies((stats) -> {
			assertThat(stats.state()).isEqualTo(InstanceState.DRAINING);
			assertThat(stats.outstanding()).isEqualTo(3);
		});
		assertThat(poolOfA.connections()).as("still open for the calls on it").isNotEmpty();
		for (int i = 0; i < 4; i++) {
			result(record(caller, false));
		}
		assertThat(a.executed).as("no new call went to a").hasValue(1);

		a.gate.countDown();
		for (CompletableFuture<ReceivedReply> future : futures) {
			result(future);
		}
		awaitState(() -> stats(caller, "a") == null, "a's pool closed once drained");
		assertThat(poolOfA.connections()).isEmpty();
		assertThat(caller.openPools()).containsOnlyKeys(b.instance());
		assertEachCallExecutedOnce(2 + 6 + 4);
		assertThat(caller.failovers()).isZero();
	}

	@Test
	void aCallAfterCloseFailsWithoutBeingSent() throws Exception {
		Server a = server("a");
		BalancedCaller caller = caller(InstanceSource.of(List.of(a.instance())), BalancerKind.ROUND_ROBIN, ejection(3));
		warmUp(caller, 1);
		caller.close();

		assertThat(failure(record(caller, false))).isInstanceOf(io.rpcrdma.client.PoolExhaustedException.class)
			.hasMessageContaining("is closed");
		assertThat(a.executed).hasValue(1);
	}

}

package io.rpcrdma.client.balance.multiprocess;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rpcrdma.client.Backoff;
import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.CallChunks;
import io.rpcrdma.client.CallTimer;
import io.rpcrdma.client.ConnectionLostException;
import io.rpcrdma.client.PoolExhaustedException;
import io.rpcrdma.client.ReceivedReply;
import io.rpcrdma.client.RetryPolicy;
import io.rpcrdma.client.RpcClient;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.client.balance.BalancedCaller;
import io.rpcrdma.client.balance.BalancerKind;
import io.rpcrdma.client.balance.Ejection;
import io.rpcrdma.client.balance.InstancePools;
import io.rpcrdma.client.balance.InstanceSource;
import io.rpcrdma.client.balance.InstanceState;
import io.rpcrdma.client.balance.NoInstanceAvailableException;
import io.rpcrdma.client.balance.ServerInstance;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * Three servers in three JVMs over software iWARP on 127.0.0.1, one {@link BalancedCaller}
 * over them under load from eight threads; mid-run one server is killed (SIGKILL) and one is
 * stopped gracefully (SIGTERM, whose shutdown hook runs {@code RpcServer#shutdown(grace)}).
 * Every call carries a unique call id, and each server appends the id of every call it
 * executes to a file before it replies, so what ran where is known exactly, the killed server
 * included.
 * <p>
 * What is asserted, precisely:
 * <ul>
 * <li>No idempotent call is lost: every one succeeds, with its own id back, and its id is in
 * some server's record.</li>
 * <li>No call executes twice on one server.</li>
 * <li>An idempotent call executes on a second server only when the first was the killed one:
 * it ran there, the reply died with the process, and the client sent it on. No server's
 * duplicate-request cache can see that (it holds only its own calls, and only non-idempotent
 * ones), so these re-executions are counted, and must be confined to the killed server's
 * calls. A graceful stop finishes its running calls and sends their replies, so it causes
 * none.</li>
 * <li>No non-idempotent call executes twice anywhere: the client never sends one again once
 * it may have left. Each either succeeds, having run exactly once, or fails with a typed
 * exception ({@link ConnectionLostException}, which says it may or may not have run,
 * {@link NoInstanceAvailableException} or {@link PoolExhaustedException}).</li>
 * <li>While all three are up, round robin spreads the calls within 20% of even.</li>
 * <li>Every id that ran was issued.</li>
 * </ul>
 */
@Tag("multiprocess")
class ManyServerProcessesTest {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private static final int THREADS = 8;

	private static final int CALLS_ALL_UP = 150;

	private static final int CALLS_WITH_FAILURES = 300;

	@TempDir
	Path directory;

	private final AtomicInteger ids = new AtomicInteger();

	/** Each issued id: whether it was idempotent. */
	private final Map<Integer, Boolean> issued = new ConcurrentHashMap<>();

	/** Each id that failed: why. */
	private final Map<Integer, Throwable> failures = new ConcurrentHashMap<>();

	private final AtomicInteger completed = new AtomicInteger();

	@Test
	void callsSpreadEvenlyAndNoneIsLostOrRunTwiceWhenOneServerIsKilledAndOneStopped() throws Exception {
		List<ServerProcess> servers = new ArrayList<>();
		ExecutorService load = Executors.newFixedThreadPool(THREADS);
		try (RdmaProvider provider = RdmaProviders.open("siw")) {
			RegisteredMemoryPool memory = new RegisteredMemoryPool(provider.allocateProtectionDomain(),
					MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
			List<CompletableFuture<ServerProcess>> starting = new ArrayList<>();
			for (String name : List.of("killed", "stopped", "survivor")) {
				starting.add(CompletableFuture.supplyAsync(() -> {
					try {
						return ServerProcess.start(name, this.directory, Duration.ofSeconds(5));
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
				}));
			}
			for (CompletableFuture<ServerProcess> server : starting) {
				servers.add(server.get(60, TimeUnit.SECONDS));
			}
			ServerProcess killed = servers.get(0);
			ServerProcess stopped = servers.get(1);
			ServerProcess survivor = servers.get(2);
			List<ServerInstance> instances = new ArrayList<>();
			for (ServerProcess server : servers) {
				instances.add(server.instance());
			}
			try (BalancedCaller caller = caller(provider, memory, InstanceSource.of(instances))) {
				// All three up.
				run(load, caller, CALLS_ALL_UP);
				int lastAllUp = this.ids.get();
				assertThat(this.failures).as("no failure while every server is up").isEmpty();

				// One killed a third of the way in, one stopped two thirds in.
				int total = THREADS * CALLS_WITH_FAILURES;
				this.completed.set(0);
				CompletableFuture<Void> running = CompletableFuture.runAsync(() -> {
					try {
						run(load, caller, CALLS_WITH_FAILURES);
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
				});
				awaitCompleted(total / 3, running);
				killed.kill();
				awaitCompleted(2 * total / 3, running);
				stopped.stopGracefully();
				running.get(DEADLINE.toSeconds() * 6, TimeUnit.SECONDS);

				assertThat(stopped.output()).as("the graceful stop ran").anyMatch((line) -> line.startsWith("STOPPED"));
				assertThat(caller.instanceStats()).filteredOn((stats) -> !stats.instance().id().equals("survivor"))
					.allSatisfy((stats) -> assertThat(stats.state()).isIn(InstanceState.EJECTED, InstanceState.PROBING));
				assertThat(caller.failovers()).as("calls went on to another server").isPositive();
				assertOutcomes(servers, killed, lastAllUp);
			}
		}
		finally {
			load.shutdownNow();
			for (ServerProcess server : servers) {
				server.close();
			}
		}
	}

	private void assertOutcomes(List<ServerProcess> servers, ServerProcess killed, int lastAllUp) throws Exception {
		// id -> the servers that executed it, once per execution
		Map<Integer, List<String>> ranOn = new HashMap<>();
		Map<String, Integer> allUpShare = new HashMap<>();
		for (ServerProcess server : servers) {
			Set<Integer> seenHere = new HashSet<>();
			for (String line : server.executed()) {
				boolean idempotent = line.charAt(0) == 'I';
				int id = Integer.parseInt(line.substring(2));
				assertThat(this.issued).as("%s ran call %d, which was issued", server, id).containsKey(id);
				assertThat(this.issued.get(id)).as("call %d ran as issued", id).isEqualTo(idempotent);
				assertThat(seenHere.add(id)).as("call %d ran twice on %s", id, server).isTrue();
				ranOn.computeIfAbsent(id, (key) -> new ArrayList<>()).add(server.name());
				if (id <= lastAllUp) {
					allUpShare.merge(server.name(), 1, Integer::sum);
				}
			}
		}
		int reRunAfterTheKill = 0;
		int nonIdempotentFailed = 0;
		for (Map.Entry<Integer, Boolean> call : this.issued.entrySet()) {
			int id = call.getKey();
			List<String> where = ranOn.getOrDefault(id, List.of());
			Throwable failure = this.failures.get(id);
			if (call.getValue()) {
				assertThat(failure).as("idempotent call %d is not lost", id).isNull();
				assertThat(where).as("idempotent call %d ran", id).isNotEmpty();
				if (where.size() > 1) {
					assertThat(where).as("call %d ran again only after the server it first ran on was killed", id)
						.hasSize(2)
						.contains(killed.name());
					reRunAfterTheKill++;
				}
			}
			else {
				assertThat(where).as("non-idempotent call %d ran at most once", id).hasSizeLessThanOrEqualTo(1);
				if (failure != null) {
					nonIdempotentFailed++;
					assertThat(failure).as("non-idempotent call %d failed with a typed exception", id)
						.isInstanceOfAny(ConnectionLostException.class, NoInstanceAvailableException.class,
								PoolExhaustedException.class);
				}
				else {
					assertThat(where).as("non-idempotent call %d succeeded, so it ran", id).hasSize(1);
				}
			}
		}
		assertThat(this.failures.keySet()).as("only non-idempotent calls fail")
			.allMatch((id) -> !this.issued.get(id));
		double even = lastAllUp / 3.0;
		assertThat(allUpShare).as("calls per server while all were up, of %d", lastAllUp)
			.hasSize(3)
			.allSatisfy((server, calls) -> assertThat((double) calls).isBetween(0.8 * even, 1.2 * even));
		System.out.printf("Many servers: %d calls, %d while all three were up %s; %d idempotent calls ran again after "
				+ "the kill; %d non-idempotent calls failed, typed%n", this.issued.size(), lastAllUp, allUpShare,
				reRunAfterTheKill, nonIdempotentFailed);
	}

	private void awaitCompleted(int count, CompletableFuture<Void> running) {
		long end = System.nanoTime() + DEADLINE.toNanos() * 3;
		while (this.completed.get() < count) {
			if (running.isDone() || System.nanoTime() > end) {
				throw new AssertionError("The load stopped at " + this.completed.get() + " calls, before " + count);
			}
			java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
		}
	}

	/** THREADS threads, each making {@code calls} calls one after the other; every fourth not idempotent. */
	private void run(ExecutorService load, BalancedCaller caller, int calls) throws Exception {
		List<CompletableFuture<Void>> threads = new ArrayList<>();
		for (int t = 0; t < THREADS; t++) {
			threads.add(CompletableFuture.runAsync(() -> {
				for (int i = 0; i < calls; i++) {
					call(caller);
				}
			}, load));
		}
		CompletableFuture.allOf(threads.toArray(CompletableFuture[]::new)).get(DEADLINE.toSeconds() * 5, TimeUnit.SECONDS);
	}

	private void call(BalancedCaller caller) {
		int id = this.ids.incrementAndGet();
		boolean idempotent = id % 4 != 0;
		this.issued.put(id, idempotent);
		CallBody body = (encoder) -> encoder.writeInt(id);
		try {
			ReceivedReply reply = caller.call(CallIdServerProcess.PROGRAM, 1,
					idempotent ? CallIdServerProcess.RECORD : CallIdServerProcess.RECORD_ONCE, body, CallChunks.of(1024, 0),
					idempotent, DEADLINE)
				.get(DEADLINE.toMillis() + 1000, TimeUnit.MILLISECONDS);
			try {
				int answered = reply.results().readInt();
				if (answered != id) {
					this.failures.put(id, new AssertionError("call " + id + " was answered for " + answered));
				}
			}
			finally {
				reply.release();
			}
		}
		catch (ExecutionException ex) {
			this.failures.put(id, ex.getCause());
		}
		catch (Exception ex) {
			this.failures.put(id, ex);
		}
		this.completed.incrementAndGet();
	}

	private static BalancedCaller caller(RdmaProvider provider, RegisteredMemoryPool memory, InstanceSource source) {
		InstancePools pools = (instance) -> new RpcClientPool(instance.id(),
				() -> RpcClient.connect(provider, memory, instance.address(), TransportConfig.defaults(), 64),
				new RpcClientPool.Config(1, 2, 64, new Backoff(Duration.ofMillis(5), Duration.ofMillis(200), 2.0, 0.0,
						new Random(1)), RetryPolicy.none()).withFailWaitersOnConnectFailure(true),
				CallTimer.shared());
		BalancedCaller.Config config = new BalancedCaller.Config(BalancerKind.ROUND_ROBIN,
				new Ejection(3, new Backoff(Duration.ofMillis(50), Duration.ofSeconds(1), 2.0, 0.0, new Random(1)),
						Duration.ofSeconds(1)),
				new RetryPolicy(4, new Backoff(Duration.ofMillis(5), Duration.ofMillis(100), 2.0, 0.0, new Random(1))));
		return new BalancedCaller("many servers", source, pools, UnaryOperator.identity(), config,
				BalancerKind.ROUND_ROBIN.create(new SplittableRandom(1)), CallTimer.shared());
	}

}

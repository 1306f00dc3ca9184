package io.rpcrdma.server;

import static io.rpcrdma.server.Wire.call;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.RpcCall;

/**
 * Many threads dispatch calls and retransmissions at once to handlers that succeed, fail,
 * and finish on other threads, through a small pool that overflows: every dispatch ends in
 * one outcome with exactly one reply when the outcome says a reply was sent, and no
 * non-idempotent call executes twice.
 */
class RpcDispatcherConcurrencyTest {

	private static final int PROGRAM = 100_099;

	private static final int THREADS = 4;

	private static final int CALLS_PER_THREAD = 1500;

	private static final EnumSet<DispatchOutcome> REPLYING = EnumSet.of(DispatchOutcome.REPLIED,
			DispatchOutcome.REPLIED_FROM_CACHE, DispatchOutcome.REJECTED_OVERLOADED);

	private final ExecutorService completions = Executors.newFixedThreadPool(2);

	private final ServerExecutor pool = ServerExecutor.boundedPool(3, 8);

	private final ExecutorService callers = Executors.newFixedThreadPool(THREADS);

	private final Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();

	@AfterEach
	void close() {
		this.completions.shutdownNow();
		this.callers.shutdownNow();
		this.pool.close();
	}

	private ProcedureHandler recording(boolean async) {
		return (call, arguments, results) -> {
			int argument = arguments.readInt();
			this.executions.computeIfAbsent(call.procedure() + "/" + argument, (key) -> new AtomicInteger())
				.incrementAndGet();
			if (argument % 7 == 0) {
				throw new IllegalStateException("failure " + argument);
			}
			if (async) {
				return CompletableFuture.runAsync(() -> {
					if (argument % 11 == 0) {
						throw new GarbageArgumentsException("garbage " + argument);
					}
					results.writeInt(argument);
				}, this.completions);
			}
			results.writeInt(argument);
			return ProcedureHandler.DONE;
		};
	}

	private record Dispatched(CompletableFuture<DispatchOutcome> outcome, AtomicInteger sends) {
	}

	@Test
	void everyDispatchEndsOnceWithAtMostOneReplyAndNoCallExecutesTwice() throws Exception {
		ProgramRegistry registry = new ProgramRegistry().register(PROGRAM, 1, 1, Idempotence.NON_IDEMPOTENT, recording(false))
			.register(PROGRAM, 1, 2, Idempotence.NON_IDEMPOTENT, recording(true))
			.register(PROGRAM, 1, 3, Idempotence.IDEMPOTENT, recording(true));
		DuplicateRequestCache cache = new DuplicateRequestCache(100_000, 100_000, Duration.ofHours(1));
		RpcDispatcher dispatcher = new RpcDispatcher(registry, this.pool, cache, new InFlightTracker());
		ReplyBufferSupplier buffers = (xid) -> ByteBuffer.allocate(256);
		List<Dispatched> all = new ArrayList<>();
		CountDownLatch go = new CountDownLatch(1);

		List<Future<List<Dispatched>>> workers = new ArrayList<>();
		for (int t = 0; t < THREADS; t++) {
			int thread = t;
			workers.add(this.callers.submit(() -> {
				Random random = new Random(thread);
				List<Dispatched> mine = new ArrayList<>();
				go.await();
				for (int i = 0; i < CALLS_PER_THREAD; i++) {
					int argument = thread * CALLS_PER_THREAD + i;
					int procedure = 1 + random.nextInt(3);
					int copies = (random.nextInt(4) == 0) ? 3 : 1;
					for (int copy = 0; copy < copies; copy++) {
						AtomicInteger sends = new AtomicInteger();
						ReplySink sink = (xid, reply) -> sends.incrementAndGet();
						mine.add(new Dispatched(dispatcher.dispatch(call(RpcCall.of(argument, PROGRAM, 1, procedure), argument),
								"client-" + thread, buffers, sink), sends));
					}
				}
				return mine;
			}));
		}
		go.countDown();
		for (Future<List<Dispatched>> worker : workers) {
			all.addAll(worker.get(60, TimeUnit.SECONDS));
		}

		CompletableFuture.allOf(all.stream().map(Dispatched::outcome).toArray(CompletableFuture[]::new))
			.get(60, TimeUnit.SECONDS);
		Map<DispatchOutcome, Integer> counts = new ConcurrentHashMap<>();
		for (Dispatched dispatched : all) {
			DispatchOutcome outcome = dispatched.outcome().join();
			counts.merge(outcome, 1, Integer::sum);
			assertThat(dispatched.sends()).as("replies sent for a dispatch ending %s", outcome)
				.hasValue(REPLYING.contains(outcome) ? 1 : 0);
		}
		this.executions.forEach((key, count) -> {
			if (!key.startsWith("3/")) {
				assertThat(count).as("executions of non-idempotent call %s", key).hasValue(1);
			}
		});
		assertThat(counts).containsKeys(DispatchOutcome.REPLIED, DispatchOutcome.REPLIED_FROM_CACHE);
		assertThat(counts.getOrDefault(DispatchOutcome.FAILED, 0)).isZero();
		Wire.assertQuiescent(dispatcher);
	}

}

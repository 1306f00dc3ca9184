package io.rpcrdma.server;

import static io.rpcrdma.server.Wire.call;
import static io.rpcrdma.server.Wire.hex;
import static io.rpcrdma.server.Wire.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcReply;

/**
 * The dispatcher on each kind of executor: which thread runs handlers, and what a saturated
 * pool answers.
 */
class ServerExecutorTest {

	private static final int PROGRAM = 100_099;

	private final CapturingConnection connection = new CapturingConnection();

	private final List<ServerExecutor> executors = new ArrayList<>();

	private final AtomicReference<Thread> handlerThread = new AtomicReference<>();

	private final ProgramRegistry registry = new ProgramRegistry().register(PROGRAM, 1, 1, Idempotence.IDEMPOTENT,
			ProcedureHandler.of((call, arguments, results) -> {
				this.handlerThread.set(Thread.currentThread());
				results.writeInt(arguments.readInt());
			}));

	@AfterEach
	void close() {
		this.executors.forEach(ServerExecutor::close);
	}

	private ServerExecutor track(ServerExecutor executor) {
		this.executors.add(executor);
		return executor;
	}

	private CompletableFuture<DispatchOutcome> dispatch(RpcDispatcher dispatcher, int xid, int procedure) {
		return dispatcher.dispatch(call(RpcCall.of(xid, PROGRAM, 1, procedure), xid), "client", this.connection,
				this.connection);
	}

	@Test
	void directRunsTheHandlerOnTheCallersThreadBeforeReturning() {
		RpcDispatcher dispatcher = new RpcDispatcher(this.registry, ServerExecutor.direct());

		CompletableFuture<DispatchOutcome> outcome = dispatch(dispatcher, 7, 1);

		assertThat(outcome).isCompletedWithValue(DispatchOutcome.REPLIED);
		assertThat(this.handlerThread.get()).isSameAs(Thread.currentThread());
	}

	@Test
	void boundedPoolRunsTheHandlerOnAWorker() throws Exception {
		RpcDispatcher dispatcher = new RpcDispatcher(this.registry, track(ServerExecutor.boundedPool(2, 4, "test-pool-")));

		assertThat(dispatch(dispatcher, 7, 1).get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);

		assertThat(this.handlerThread.get().getName()).startsWith("test-pool-");
		assertThat(hex(this.connection.nextReply())).isEqualTo(hex(reply(RpcReply.success(7), 7)));
	}

	@Test
	void aSaturatedBoundedPoolAnswersSystemErrAtOnceWithoutRunningTheCall() throws Exception {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		AtomicInteger invocations = new AtomicInteger();
		this.registry.register(PROGRAM, 1, 2, Idempotence.IDEMPOTENT, ProcedureHandler.of((call, arguments, results) -> {
			invocations.incrementAndGet();
			started.countDown();
			if (!release.await(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("never released");
			}
			results.writeInt(call.xid());
		}));
		RpcDispatcher dispatcher = new RpcDispatcher(this.registry, track(ServerExecutor.boundedPool(1, 1)));

		CompletableFuture<DispatchOutcome> running = dispatch(dispatcher, 1, 2);
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		CompletableFuture<DispatchOutcome> queued = dispatch(dispatcher, 2, 2);
		CompletableFuture<DispatchOutcome> refused = dispatch(dispatcher, 3, 2);

		assertThat(refused).isCompletedWithValue(DispatchOutcome.REJECTED_OVERLOADED);
		assertThat(hex(this.connection.nextReply())).isEqualTo(hex(reply(RpcReply.systemErr(3))));
		assertThat(dispatcher.stats().overloaded()).isEqualTo(1);

		release.countDown();
		assertThat(running.get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
		assertThat(queued.get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
		assertThat(hex(this.connection.nextReply())).isEqualTo(hex(reply(RpcReply.success(1), 1)));
		assertThat(hex(this.connection.nextReply())).isEqualTo(hex(reply(RpcReply.success(2), 2)));
		assertThat(invocations).hasValue(2);
		Wire.assertQuiescent(dispatcher);
	}

	@Test
	void aClosedPoolRefusesCalls() throws Exception {
		ServerExecutor pool = ServerExecutor.boundedPool(1, 1);
		pool.close();
		RpcDispatcher dispatcher = new RpcDispatcher(this.registry, pool);

		assertThat(dispatch(dispatcher, 9, 1)).isCompletedWithValue(DispatchOutcome.REJECTED_OVERLOADED);
		assertThat(hex(this.connection.nextReply())).isEqualTo(hex(reply(RpcReply.systemErr(9))));
	}

	@Test
	void anExecutorThatThrowsIsTreatedAsSaturated() throws Exception {
		ServerExecutor throwing = new ServerExecutor() {

			@Override
			public boolean tryExecute(Runnable task) {
				throw new java.util.concurrent.RejectedExecutionException("no");
			}

			@Override
			public String description() {
				return "throwing";
			}

			@Override
			public void close() {
			}

		};
		RpcDispatcher dispatcher = new RpcDispatcher(this.registry, throwing);

		assertThat(dispatch(dispatcher, 9, 1)).isCompletedWithValue(DispatchOutcome.REJECTED_OVERLOADED);
		assertThat(hex(this.connection.nextReply())).isEqualTo(hex(reply(RpcReply.systemErr(9))));
		assertThat(dispatcher.inFlight().inFlight()).isZero();
	}

	@Test
	void virtualThreadsRunCallsOnJava21OrFallBackToABoundedPoolSayingWhy() throws Exception {
		ServerExecutor executor = track(ServerExecutor.virtualThreads(16));
		RpcDispatcher dispatcher = new RpcDispatcher(this.registry, executor);

		assertThat(dispatch(dispatcher, 7, 1).get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);

		boolean java21 = Runtime.version().feature() >= 21;
		assertThat(ServerExecutor.virtualThreadsAvailable()).isEqualTo(java21);
		if (java21) {
			assertThat(executor.description()).startsWith("virtual thread per call");
			assertThat(Thread.class.getMethod("isVirtual").invoke(this.handlerThread.get())).isEqualTo(true);
		}
		else {
			assertThat(executor.description()).contains("bounded pool")
				.contains("virtual threads were requested but need Java 21 or later");
			assertThat(this.handlerThread.get()).isNotSameAs(Thread.currentThread());
		}
	}

	@Test
	void aBoundedPoolTakesAHandOverInThePlaceOfTheEndingTaskAndKeepsItsBound() throws Exception {
		assertHandOverKeepsABoundOfOne(track(ServerExecutor.boundedPool(1, 0, "hand-over-")));
	}

	@Test
	void virtualThreadsTakeAHandOverInThePlaceOfTheEndingTaskAndKeepTheirBound() throws Exception {
		org.junit.jupiter.api.Assumptions.assumeTrue(ServerExecutor.virtualThreadsAvailable(), "needs Java 21 or later");
		assertHandOverKeepsABoundOfOne(track(ServerExecutor.virtualThreads(1)));
	}

	/**
	 * A task that cannot start another (the executor is full with itself) hands its place to
	 * it; while that one runs nothing else gets in, and once it has ended exactly one place is
	 * free again: the hand-over neither leaked nor doubled a place.
	 */
	private static void assertHandOverKeepsABoundOfOne(ServerExecutor executor) throws Exception {
		CountDownLatch nextRunning = new CountDownLatch(1);
		CountDownLatch releaseNext = new CountDownLatch(1);
		CompletableFuture<Boolean> startedInside = new CompletableFuture<>();
		CompletableFuture<Boolean> handedOver = new CompletableFuture<>();
		Runnable next = () -> {
			nextRunning.countDown();
			await(releaseNext);
		};
		assertThat(executor.tryExecute(() -> {
			startedInside.complete(executor.tryExecute(() -> {
			}));
			handedOver.complete(executor.tryHandOver(next));
		})).isTrue();

		assertThat(startedInside.get(10, TimeUnit.SECONDS)).as("another task, while the only place is taken").isFalse();
		assertThat(handedOver.get(10, TimeUnit.SECONDS)).as("the hand-over").isTrue();
		assertThat(nextRunning.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(executor.tryExecute(() -> {
		})).as("a task while the handed-over one runs").isFalse();
		releaseNext.countDown();

		CountDownLatch releaseLast = new CountDownLatch(1);
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!executor.tryExecute(() -> await(releaseLast))) {
			assertThat(System.nanoTime()).as("the place was given back before the deadline").isLessThan(deadline);
			Thread.yield();
		}
		assertThat(executor.tryExecute(() -> {
		})).as("a second task beside the one holding the only place").isFalse();
		releaseLast.countDown();
	}

	private static void await(CountDownLatch latch) {
		try {
			if (!latch.await(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("never released");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void invalidPoolSizesAreRefused() {
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> ServerExecutor.boundedPool(0, 1))
			.withMessageContaining("at least 1 thread");
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> ServerExecutor.virtualThreads(0))
			.withMessageContaining("maxConcurrentCalls");
	}

}

package io.rpcrdma.server;

import static io.rpcrdma.server.Wire.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.server.security.SecurityPolicy;

/**
 * The dispatcher sharing a real bounded pool among connections ({@link ExecutorShare}): a
 * connection flooding it with slow calls holds at most its share, its further calls wait on it
 * and run in their turn, and a quiet connection's call is next in line instead of refused; the
 * pool's own bound still refuses what it cannot hold, counted as overloaded.
 * <p>
 * A slow call runs until the test lets one more slow call finish ({@link #finish}); a quick
 * call returns at once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConnectionShareTest {

	private static final int PROGRAM = 100_134;

	private static final int SLOW = 1;

	private static final int QUICK = 2;

	private static final int ASYNC = 3;

	private final CapturingConnection replies = new CapturingConnection();

	private final List<ServerExecutor> executors = new ArrayList<>();

	/** Released once per slow call started. */
	private final Semaphore slowStarted = new Semaphore(0);

	/** One permit lets one slow call finish. */
	private final Semaphore finish = new Semaphore(0);

	private final AtomicInteger running = new AtomicInteger();

	private final AtomicInteger mostRunning = new AtomicInteger();

	private final CompletableFuture<Void> asyncDone = new CompletableFuture<>();

	private final AtomicInteger asyncStarted = new AtomicInteger();

	private final ProgramRegistry registry = new ProgramRegistry()
		.register(PROGRAM, 1, SLOW, Idempotence.IDEMPOTENT, ProcedureHandler.of((call, arguments, results) -> {
			this.mostRunning.accumulateAndGet(this.running.incrementAndGet(), Math::max);
			this.slowStarted.release();
			try {
				if (!this.finish.tryAcquire(30, TimeUnit.SECONDS)) {
					throw new IllegalStateException("the test never let this slow call finish");
				}
			}
			finally {
				this.running.decrementAndGet();
			}
			results.writeInt(call.xid());
		}))
		.register(PROGRAM, 1, QUICK, Idempotence.IDEMPOTENT,
				ProcedureHandler.of((call, arguments, results) -> results.writeInt(call.xid())))
		.register(PROGRAM, 1, ASYNC, Idempotence.IDEMPOTENT, (call, arguments, results) -> {
			this.asyncStarted.incrementAndGet();
			return this.asyncDone.thenRun(() -> results.writeInt(call.xid()));
		});

	@AfterEach
	void close() {
		this.finish.release(1000);
		this.asyncDone.complete(null);
		this.executors.forEach(ServerExecutor::close);
	}

	private RpcDispatcher dispatcher(ServerExecutor executor, ExecutorShare share) {
		this.executors.add(executor);
		return new RpcDispatcher(this.registry, executor, null, new InFlightTracker(), SecurityPolicy.permitAll(), share);
	}

	private CompletableFuture<DispatchOutcome> dispatch(RpcDispatcher dispatcher, Object client, int xid, int procedure) {
		return dispatcher.dispatch(call(RpcCall.of(xid, PROGRAM, 1, procedure), xid), client, this.replies, this.replies);
	}

	private void awaitSlowStarts(int count) throws InterruptedException {
		assertThat(this.slowStarted.tryAcquire(count, 10, TimeUnit.SECONDS)).as("%d slow calls started", count).isTrue();
	}

	@Test
	void aQuietConnectionsCallIsNextInLineBehindAFloodOfSlowCalls() throws Exception {
		// Two workers and room for eight more: the flood alone would fill both and be refused.
		RpcDispatcher dispatcher = dispatcher(ServerExecutor.boundedPool(2, 8, "share-test-"), new ExecutorShare(2, 64));
		List<CompletableFuture<DispatchOutcome>> flood = new ArrayList<>();
		for (int xid = 1; xid <= 30; xid++) {
			flood.add(dispatch(dispatcher, "busy", xid, SLOW));
		}
		awaitSlowStarts(2);

		CompletableFuture<DispatchOutcome> quiet = dispatch(dispatcher, "quiet", 1000, QUICK);
		assertThat(quiet).as("the quiet call waits for a worker, it is not refused").isNotDone();
		this.finish.release();

		assertThat(quiet.get(10, TimeUnit.SECONDS)).as("the quiet call, once one slow call has finished")
			.isEqualTo(DispatchOutcome.REPLIED);
		assertThat(flood.stream().filter(CompletableFuture::isDone)).as("the flood's calls finished").hasSize(1);
		this.finish.release(29);
		for (CompletableFuture<DispatchOutcome> outcome : flood) {
			assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
		}
		assertThat(dispatcher.stats().overloaded()).as("calls refused").isZero();
		assertThat(dispatcher.stats().deferred()).as("the flood's calls that waited on their connection").isEqualTo(28);
		assertThat(this.mostRunning).as("slow calls running at once, at most the workers").hasValue(2);
		Wire.assertQuiescent(dispatcher);
	}

	@Test
	void thePoolsBoundStillRefusesWhatNoShareLeavesRoomFor() throws Exception {
		// 2 workers + 4 queued: three connections of two calls each fill it.
		RpcDispatcher dispatcher = dispatcher(ServerExecutor.boundedPool(2, 4, "share-test-"), new ExecutorShare(2, 8));
		List<CompletableFuture<DispatchOutcome>> admitted = new ArrayList<>();
		List<CompletableFuture<DispatchOutcome>> refused = new ArrayList<>();
		int xid = 0;
		for (int connection = 0; connection < 5; connection++) {
			for (int call = 0; call < 3; call++) {
				CompletableFuture<DispatchOutcome> outcome = dispatch(dispatcher, "peer-" + connection, ++xid, SLOW);
				(connection < 3 ? admitted : refused).add(outcome);
			}
		}
		awaitSlowStarts(2);

		assertThat(refused).as("the calls of the connections that found the pool full")
			.allSatisfy((outcome) -> assertThat(outcome).isCompletedWithValue(DispatchOutcome.REJECTED_OVERLOADED));
		assertThat(dispatcher.stats().overloaded()).isEqualTo(refused.size());
		assertThat(dispatcher.stats().deferred()).as("each admitted connection's third call").isEqualTo(3);
		this.finish.release(admitted.size());
		for (CompletableFuture<DispatchOutcome> outcome : admitted) {
			assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
		}
		assertThat(this.mostRunning).hasValue(2);
		Wire.assertQuiescent(dispatcher);
	}

	@Test
	void aConnectionBeyondItsShareAndWaitingRoomIsRefusedAlone() throws Exception {
		RpcDispatcher dispatcher = dispatcher(ServerExecutor.boundedPool(2, 8, "share-test-"), new ExecutorShare(1, 1));
		CompletableFuture<DispatchOutcome> first = dispatch(dispatcher, "busy", 1, SLOW);
		CompletableFuture<DispatchOutcome> second = dispatch(dispatcher, "busy", 2, SLOW);
		CompletableFuture<DispatchOutcome> third = dispatch(dispatcher, "busy", 3, SLOW);
		awaitSlowStarts(1);

		assertThat(third).isCompletedWithValue(DispatchOutcome.REJECTED_OVERLOADED);
		assertThat(dispatch(dispatcher, "quiet", 4, QUICK).get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
		this.finish.release(2);
		assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
		assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
		assertThat(dispatcher.stats().overloaded()).isEqualTo(1);
		Wire.assertQuiescent(dispatcher);
	}

	@Test
	void aCallEndingHandsItsPlaceToItsConnectionsNextEvenWhenThePoolHasNoQueue() throws Exception {
		// One worker and no queue: the pool counts the ending call until it has returned, so
		// the waiting call must take over its place rather than ask for a new one.
		RpcDispatcher dispatcher = dispatcher(ServerExecutor.boundedPool(1, 0, "share-test-"), new ExecutorShare(1, 8));
		List<CompletableFuture<DispatchOutcome>> calls = new ArrayList<>();
		for (int xid = 1; xid <= 4; xid++) {
			calls.add(dispatch(dispatcher, "busy", xid, SLOW));
		}
		this.finish.release(4);

		for (CompletableFuture<DispatchOutcome> outcome : calls) {
			assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
		}
		assertThat(this.replies.sentXids).as("in the order they came").containsExactly(1, 2, 3, 4);
		assertThat(dispatcher.stats().overloaded()).isZero();
		Wire.assertQuiescent(dispatcher);
	}

	@Test
	void aHandlerAnsweringThroughAStageGivesItsPlaceBackWhenItReturns() throws Exception {
		RpcDispatcher dispatcher = dispatcher(ServerExecutor.boundedPool(1, 0, "share-test-"), new ExecutorShare(1, 8));
		CompletableFuture<DispatchOutcome> first = dispatch(dispatcher, "client", 1, ASYNC);
		CompletableFuture<DispatchOutcome> second = dispatch(dispatcher, "client", 2, ASYNC);

		CompletableFuture<DispatchOutcome> quick = dispatch(dispatcher, "client", 3, QUICK);
		assertThat(quick.get(10, TimeUnit.SECONDS)).as("a call after two still answering").isEqualTo(DispatchOutcome.REPLIED);
		assertThat(this.asyncStarted).hasValue(2);
		this.asyncDone.complete(null);
		assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
		assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
		Wire.assertQuiescent(dispatcher);
	}

	@Test
	void aConnectionsShareLivesWhileItIsOpenAndAKeysWhileItHasCalls() throws Exception {
		RpcDispatcher dispatcher = dispatcher(ServerExecutor.boundedPool(1, 4, "share-test-"), new ExecutorShare(1, 8));
		OpenConnection connection = new OpenConnection(this.replies);

		ByteBuffer message = call(RpcCall.of(1, PROGRAM, 1, QUICK), 1);
		assertThat(dispatcher.dispatch(message, "peer", connection, connection).get(10, TimeUnit.SECONDS))
			.isEqualTo(DispatchOutcome.REPLIED);
		assertThat(dispatch(dispatcher, "other", 2, QUICK).get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
		Wire.assertQuiescent(dispatcher);

		// A call's outcome is told before its task ends and gives its place back.
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (dispatcher.shares.connections() > 1) {
			assertThat(System.nanoTime()).as("the idle key's share left before the deadline").isLessThan(deadline);
			Thread.yield();
		}
		assertThat(dispatcher.shares.connections()).as("the open connection's share alone").isEqualTo(1);
		connection.closed.complete(null);
		assertThat(dispatcher.shares.connections()).isZero();
	}

	@Test
	void aDirectExecutorHasNoPlacesToShare() {
		assertThatThrownBy(() -> new RpcDispatcher(this.registry, ServerExecutor.direct(), null, new InFlightTracker(),
				SecurityPolicy.permitAll(), new ExecutorShare(1, 1)))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("direct");
		assertThatThrownBy(() -> new ExecutorShare(0, 1)).isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> new ExecutorShare(1, -1)).isInstanceOf(IllegalArgumentException.class);
	}

	/** A sink naming a connection, as the server's does, that closes when the test says. */
	private static final class OpenConnection implements ReplyBufferSupplier, ReplySink {

		private final CapturingConnection delegate;

		final CompletableFuture<Void> closed = new CompletableFuture<>();

		OpenConnection(CapturingConnection delegate) {
			this.delegate = delegate;
		}

		@Override
		public ByteBuffer acquire(int xid) {
			return this.delegate.acquire(xid);
		}

		@Override
		public void release(ByteBuffer buffer) {
			this.delegate.release(buffer);
		}

		@Override
		public void send(int xid, ByteBuffer reply) {
			this.delegate.send(xid, reply);
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

}

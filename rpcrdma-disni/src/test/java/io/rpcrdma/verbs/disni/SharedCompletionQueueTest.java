package io.rpcrdma.verbs.disni;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.ibm.disni.verbs.IbvWC;

class SharedCompletionQueueTest {

	private static final int BATCH = 16;

	private final Map<Integer, CountingQueuePair> queuePairs = new HashMap<>();

	private final FakeAdapterCompletionQueue adapter = new FakeAdapterCompletionQueue(BATCH, 4096);

	private final SharedCompletionQueue shared = new SharedCompletionQueue(1, this.adapter,
			new CompletionDispatcher(this.queuePairs::get), 20);

	private final List<Thread> threads = new ArrayList<>();

	@AfterEach
	void close() {
		this.shared.close();
	}

	@Test
	void aPollTakesOneBatchAndTellsItsQueuesBeforeTheNextIsTaken() {
		CountingQueuePair busy = queuePair(1);
		CountingQueuePair quiet = queuePair(2);
		for (int i = 0; i < 40; i++) {
			this.adapter.add(WorkRequestIds.receive(1));
		}
		this.adapter.add(WorkRequestIds.receive(2));
		for (int i = 0; i < 100; i++) {
			this.adapter.add(WorkRequestIds.receive(1));
		}
		AtomicInteger pollsWhenQuietWasTold = new AtomicInteger();
		quiet.onNotify = () -> pollsWhenQuietWasTold.set(this.adapter.polls());
		assertThat(this.shared.pollBatch()).isEqualTo(BATCH);
		assertThat(busy.delivered.get()).isEqualTo(BATCH);
		assertThat(busy.notified.get()).isEqualTo(1);
		while (this.shared.pollBatch() > 0) {
			// drain
		}
		// The quiet queue pair's completion, the 41st, came out in the third batch and was
		// reported then, not after the busy one's backlog of 100 more.
		assertThat(pollsWhenQuietWasTold.get()).isEqualTo(3);
		assertThat(quiet.delivered.get()).isEqualTo(1);
		assertThat(busy.delivered.get()).isEqualTo(140);
		assertThat(busy.notified.get()).isEqualTo(9);
	}

	@Test
	void aConnectionThatNeverStopsCompletingDoesNotStarveAnotherOnTheEventThread() throws InterruptedException {
		queuePair(1);
		CountingQueuePair quiet = queuePair(2);
		CountDownLatch told = new CountDownLatch(1);
		quiet.onNotify = told::countDown;
		for (int i = 0; i < 1000; i++) {
			this.adapter.add(WorkRequestIds.receive(1));
		}
		this.adapter.add(WorkRequestIds.receive(2));
		this.adapter.thenEndless(() -> WorkRequestIds.receive(1));
		startEvents();
		this.adapter.raiseEvent();
		assertThat(told.await(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void theEventThreadArmsBeforeItWaitsAndReArmsAfterEachEventBeforeItDrains() throws InterruptedException {
		CountingQueuePair qp = queuePair(1);
		CountDownLatch first = new CountDownLatch(1);
		CountDownLatch second = new CountDownLatch(2);
		qp.onNotify = () -> {
			first.countDown();
			second.countDown();
		};
		startEvents();
		this.adapter.add(WorkRequestIds.receive(1));
		this.adapter.raiseEvent();
		assertThat(first.await(10, TimeUnit.SECONDS)).isTrue();
		this.adapter.add(WorkRequestIds.receive(1));
		this.adapter.raiseEvent();
		assertThat(second.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(this.adapter.awaitEventsTaken(2)).isTrue();
		assertThat(this.adapter.calls()).containsExactly("arm", "arm", "arm");
		assertThat(qp.delivered.get()).isEqualTo(2);
	}

	@Test
	void everyEventIsAcknowledgedBeforeTheQueueIsDestroyed() throws InterruptedException {
		CountingQueuePair qp = queuePair(1);
		startEvents();
		for (int i = 0; i < 40; i++) {
			this.adapter.add(WorkRequestIds.receive(1));
		}
		for (int i = 0; i < 40; i++) {
			this.adapter.raiseEvent();
		}
		assertThat(this.adapter.awaitEventsTaken(40)).isTrue();
		this.shared.close();
		assertThat(qp.delivered.get()).isEqualTo(40);
		assertThat(this.adapter.acknowledged()).isEqualTo(40);
		List<String> calls = this.adapter.calls();
		assertThat(calls).endsWith("ack 8", "destroy");
		assertThat(calls).contains("ack " + SharedCompletionQueue.ACK_BATCH);
	}

	@Test
	void aHandlerThatClosesTheQueueLeavesTheDestructionToTheLoopAfterItsLastAcknowledgement()
			throws InterruptedException {
		CountingQueuePair qp = queuePair(1);
		CountDownLatch closed = new CountDownLatch(1);
		qp.onNotify = () -> {
			this.shared.close();
			closed.countDown();
		};
		startEvents();
		this.adapter.add(WorkRequestIds.receive(1));
		this.adapter.raiseEvent();
		assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
		this.threads.get(0).join(10_000);
		assertThat(this.threads.get(0).isAlive()).isFalse();
		// The event may have been taken before the completion was polled, or after (the thread
		// also polls when its wait times out): either way it is acknowledged before the end.
		assertThat(this.adapter.calls()).endsWith("destroy").containsOnlyOnce("destroy");
		assertThat(this.adapter.acknowledged()).isEqualTo(this.adapter.eventsTaken());
	}

	@Test
	void onlyThePollerThreadCountsAsIt() throws InterruptedException {
		queuePair(1);
		AtomicInteger onPoller = new AtomicInteger();
		CountDownLatch told = new CountDownLatch(1);
		this.queuePairs.get(1).onNotify = () -> {
			onPoller.set(this.shared.isPollerThread() ? 1 : -1);
			told.countDown();
		};
		startEvents();
		this.adapter.add(WorkRequestIds.receive(1));
		this.adapter.raiseEvent();
		assertThat(told.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(onPoller.get()).isEqualTo(1);
		assertThat(this.shared.isPollerThread()).isFalse();
	}

	@Test
	void aFailedAdapterQueueTellsEveryQueuePairOnItAndStopsPolling() {
		List<String> told = new CopyOnWriteArrayList<>();
		this.shared.reserve(100, (detail) -> told.add("a: " + detail));
		this.shared.reserve(100, (detail) -> told.add("b: " + detail));
		this.adapter.failPolls(new IOException("Invalid argument"));
		assertThat(this.shared.pollBatch()).isEqualTo(-1);
		assertThat(told).hasSize(2)
			.allMatch((line) -> line.contains("ibv_poll_cq failed on shared completion queue 1 of 4096 entries "
					+ "(Invalid argument); the queue is in error"));
		assertThat(this.shared.isFailed()).isTrue();
		assertThat(this.shared.pollBatch()).isEqualTo(-1);
		assertThat(told).hasSize(2);
	}

	@Test
	void aQueuePairThatLeftIsNotToldOfALaterFailure() {
		List<String> told = new CopyOnWriteArrayList<>();
		SharedCompletionQueue.Member member = told::add;
		this.shared.reserve(100, member);
		this.shared.release(100, member);
		assertThat(this.shared.reserved()).isZero();
		this.adapter.failPolls(new IOException("Invalid argument"));
		this.shared.pollBatch();
		assertThat(told).isEmpty();
	}

	private void startEvents() {
		this.shared.startEvents((task) -> {
			Thread thread = new Thread(task, "test-completions");
			thread.setDaemon(true);
			this.threads.add(thread);
			return thread;
		});
	}

	private CountingQueuePair queuePair(int index) {
		CountingQueuePair qp = new CountingQueuePair();
		this.queuePairs.put(index, qp);
		return qp;
	}

	/** A queue pair with a queue of its own, counting what it got and how often it was told. */
	private static final class CountingQueuePair implements CompletionDispatcher.Route, CompletionDispatcher.Sink {

		final AtomicInteger delivered = new AtomicInteger();

		final AtomicInteger notified = new AtomicInteger();

		volatile Runnable onNotify = () -> {
		};

		@Override
		public CompletionDispatcher.Sink deliver(IbvWC wc) {
			this.delivered.incrementAndGet();
			return this;
		}

		@Override
		public void notifyIfArmed() {
			this.notified.incrementAndGet();
			this.onNotify.run();
		}

	}

}

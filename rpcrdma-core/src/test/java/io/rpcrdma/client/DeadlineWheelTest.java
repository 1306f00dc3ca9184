package io.rpcrdma.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The timing wheel behind call deadlines: never early, in deadline order across buckets and
 * turns of the wheel, cancellation before the deadline wins, and a failing task does not stop
 * the others.
 */
class DeadlineWheelTest {

	/** A small wheel, so that deadlines of tens of milliseconds go around it several times. */
	private final DeadlineWheel wheel = new DeadlineWheel("test-wheel", Duration.ofMillis(1), 8);

	@AfterEach
	void close() {
		this.wheel.close();
	}

	@Test
	void aDeadlineNeverFiresEarly() throws Exception {
		for (int delay : new int[] { 0, 3, 20, 45 }) {
			CountDownLatch fired = new CountDownLatch(1);
			long start = System.nanoTime();
			long[] ranAt = new long[1];
			this.wheel.schedule(Duration.ofMillis(delay), () -> {
				ranAt[0] = System.nanoTime();
				fired.countDown();
			});
			assertThat(fired.await(5, TimeUnit.SECONDS)).as("fired after " + delay + " ms").isTrue();
			assertThat(ranAt[0] - start).as("elapsed before a " + delay + " ms deadline")
				.isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(delay));
		}
	}

	@Test
	void deadlinesAcrossSeveralTurnsFireInOrder() throws Exception {
		List<Integer> order = Collections.synchronizedList(new ArrayList<>());
		CountDownLatch all = new CountDownLatch(6);
		// Deadlines measured from one instant, and the wheel thread held while they are
		// scheduled: a scheduling thread preempted past the earliest deadline on a loaded
		// machine then finds none fired yet, and the catch-up keeps deadline order (see below).
		CountDownLatch release = holdTheWheel();
		long start = System.nanoTime();
		for (int delay : new int[] { 60, 25, 45, 80, 33, 21 }) {
			this.wheel.schedule(Duration.ofNanos(start + TimeUnit.MILLISECONDS.toNanos(delay) - System.nanoTime()), () -> {
				order.add(delay);
				all.countDown();
			});
		}
		release.countDown();
		assertThat(all.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(order).containsExactly(21, 25, 33, 45, 60, 80);
	}

	@Test
	void catchingUpAfterALateTurnFiresALaterTurnsDeadlineOnlyAfterEarlierOnes() throws Exception {
		// Eight buckets of 1 ms: 12 ms lies in the bucket of tick 4, a turn later than 7 ms.
		// The wheel thread is held past both; catching up, it visits tick 4's bucket first.
		List<Integer> order = Collections.synchronizedList(new ArrayList<>());
		CountDownLatch both = new CountDownLatch(2);
		CountDownLatch release = holdTheWheel();
		// From when the wheel is held: both deadlines lie ahead when scheduled.
		long start = System.nanoTime();
		for (int delay : new int[] { 12, 7 }) {
			this.wheel.schedule(Duration.ofNanos(start + TimeUnit.MILLISECONDS.toNanos(delay) - System.nanoTime()), () -> {
				order.add(delay);
				both.countDown();
			});
		}
		while (System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(14)) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
		release.countDown();
		assertThat(both.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(order).containsExactly(7, 12);
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void aCancelledDeadlineNeverRunsAndOthersDo() throws Exception {
		AtomicInteger cancelledRuns = new AtomicInteger();
		CallTimer.Timeout cancelled = this.wheel.schedule(Duration.ofMillis(10), cancelledRuns::incrementAndGet);
		CountDownLatch later = new CountDownLatch(1);
		this.wheel.schedule(Duration.ofMillis(30), later::countDown);
		cancelled.cancel();
		cancelled.cancel();
		assertThat(later.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(cancelledRuns).hasValue(0);
	}

	@Test
	void aFailingTaskDoesNotStopTheWheel() throws Exception {
		this.wheel.schedule(Duration.ofMillis(2), () -> {
			throw new IllegalStateException("deadline task failed on purpose");
		});
		CountDownLatch after = new CountDownLatch(1);
		this.wheel.schedule(Duration.ofMillis(4), after::countDown);
		assertThat(after.await(5, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void manyThreadsScheduleAndCancelConcurrently() throws Exception {
		int threads = 4;
		int perThread = 2000;
		AtomicInteger ran = new AtomicInteger();
		CountDownLatch kept = new CountDownLatch(threads * perThread / 2);
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			Thread worker = new Thread(() -> {
				for (int i = 0; i < perThread; i++) {
					CallTimer.Timeout timeout = this.wheel.schedule(Duration.ofMillis(i % 17), () -> {
						ran.incrementAndGet();
						kept.countDown();
					});
					if ((i & 1) == 1) {
						timeout.cancel();
					}
				}
			});
			workers.add(worker);
			worker.start();
		}
		for (Thread worker : workers) {
			worker.join(TimeUnit.SECONDS.toMillis(10));
		}
		assertThat(kept.await(10, TimeUnit.SECONDS)).as("every deadline not cancelled ran").isTrue();
		// A cancel may lose the race with a deadline of 0 ms; it never makes a deadline run twice.
		assertThat(ran.get()).isBetween(threads * perThread / 2, threads * perThread);
	}

	/**
	 * Holds the wheel thread in a task until the returned latch is counted down.
	 * @return the latch that lets it go
	 */
	private CountDownLatch holdTheWheel() throws InterruptedException {
		CountDownLatch held = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		this.wheel.schedule(Duration.ZERO, () -> {
			held.countDown();
			await(release);
		});
		assertThat(held.await(5, TimeUnit.SECONDS)).as("the wheel thread ran the holding task").isTrue();
		return release;
	}

}

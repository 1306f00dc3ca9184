package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * The requester's credit accounting (RFC 5666 §3.3, RFC 8166 §3.3.1).
 */
class CreditWindowTest {

	private static final Duration LONG = Duration.ofSeconds(10);

	@Test
	void aRequesterStartsWithOneCredit() {
		CreditWindow window = new CreditWindow(32);
		assertThat(window.limit()).isEqualTo(1);
		assertThat(window.tryAcquire()).isTrue();
		assertThat(window.tryAcquire()).isFalse();
		assertThat(window.acquire(LONG)).isNotDone();
	}

	@Test
	void aGrantRaisesTheLimitUpToWhatWasRequestedAndWakesWaiters() {
		CreditWindow window = new CreditWindow(3);
		assertThat(window.tryAcquire()).isTrue();
		CompletableFuture<Void> second = window.acquire(LONG);
		CompletableFuture<Void> third = window.acquire(LONG);
		CompletableFuture<Void> fourth = window.acquire(LONG);
		window.updateGrant(100);
		assertThat(window.limit()).isEqualTo(3);
		assertThat(second).isDone();
		assertThat(third).isDone();
		assertThat(fourth).isNotDone();
		assertThat(window.outstanding()).isEqualTo(3);
	}

	@Test
	void onlyCallsThatFoundNoCreditFreeCountAsWaited() {
		CreditWindow window = new CreditWindow(2);
		assertThat(window.acquire(LONG)).isDone();
		assertThat(window.waitedAcquisitions()).isZero();
		CompletableFuture<Void> second = window.acquire(LONG);
		CompletableFuture<Void> third = window.acquire(LONG);
		assertThat(window.waitedAcquisitions()).isEqualTo(2);
		window.updateGrant(2);
		assertThat(second).isDone();
		assertThat(third).isNotDone();
		window.release();
		assertThat(third).isDone();
		assertThat(window.tryAcquire()).isFalse();
		assertThat(window.waitedAcquisitions()).isEqualTo(2);
	}

	@Test
	void aZeroGrantStillLeavesOneCredit() {
		CreditWindow window = new CreditWindow(8);
		window.updateGrant(8);
		window.updateGrant(0);
		assertThat(window.limit()).isEqualTo(1);
		assertThat(window.tryAcquire()).isTrue();
	}

	@Test
	void aShrunkGrantBlocksNewCallsUntilTheOutstandingOnesDropBelowIt() {
		CreditWindow window = new CreditWindow(4);
		window.updateGrant(4);
		for (int i = 0; i < 4; i++) {
			assertThat(window.tryAcquire()).isTrue();
		}
		window.updateGrant(2);
		CompletableFuture<Void> waiting = window.acquire(LONG);
		window.release();
		window.release();
		assertThat(waiting).isNotDone();
		window.release();
		assertThat(waiting).isDone();
		assertThat(window.outstanding()).isEqualTo(2);
	}

	@Test
	void waitersAreServedInArrivalOrder() {
		CreditWindow window = new CreditWindow(1);
		assertThat(window.tryAcquire()).isTrue();
		List<Integer> order = new ArrayList<>();
		for (int i = 0; i < 50; i++) {
			int index = i;
			window.acquire(LONG).thenRun(() -> {
				order.add(index);
				window.release();
			});
		}
		window.release();
		assertThat(order).hasSize(50);
		for (int i = 0; i < 50; i++) {
			assertThat(order.get(i)).isEqualTo(i);
		}
	}

	@Test
	void aNewCallerDoesNotOvertakeWaitersWhenACreditFrees() {
		CreditWindow window = new CreditWindow(1);
		assertThat(window.tryAcquire()).isTrue();
		CompletableFuture<Void> waiter = window.acquire(LONG);
		window.release();
		assertThat(waiter).isDone();
		assertThat(window.tryAcquire()).isFalse();
	}

	@Test
	void aWaiterFailsAtItsDeadlineAndLeavesTheQueue() {
		CreditWindow window = new CreditWindow(1);
		assertThat(window.tryAcquire()).isTrue();
		CompletableFuture<Void> waiter = window.acquire(Duration.ofMillis(50));
		assertThatThrownBy(() -> waiter.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
			.cause()
			.isInstanceOf(CreditWaitTimeoutException.class)
			.hasMessageContaining("RFC 5666 §3.3");
		assertThat(window.waiting()).isZero();
		window.release();
		assertThat(window.outstanding()).isZero();
	}

	@Test
	void closingFailsWaitersAndLaterAcquires() {
		CreditWindow window = new CreditWindow(1);
		assertThat(window.tryAcquire()).isTrue();
		CompletableFuture<Void> waiter = window.acquire(LONG);
		TransportClosedException lost = new TransportClosedException("gone");
		window.close(lost);
		assertThat(waiter).isCompletedExceptionally();
		assertThat(window.acquire(LONG)).isCompletedExceptionally();
	}

	@Test
	void releasingMoreThanWasAcquiredIsABug() {
		CreditWindow window = new CreditWindow(1);
		assertThatIllegalStateException().isThrownBy(window::release);
	}

	@Test
	void manyThreadsNeverHoldMoreThanTheGrantAndAllGetServedInOrderOfArrival() throws Exception {
		int grant = 4;
		int threads = 16;
		int perThread = 200;
		CreditWindow window = new CreditWindow(grant);
		window.updateGrant(grant);
		AtomicInteger held = new AtomicInteger();
		AtomicInteger maxHeld = new AtomicInteger();
		ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
		CountDownLatch done = new CountDownLatch(threads * perThread);
		// Holders release from a separate thread, as replies arriving would.
		java.util.concurrent.ExecutorService releaser = java.util.concurrent.Executors.newSingleThreadExecutor();
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			Thread worker = new Thread(() -> {
				for (int i = 0; i < perThread; i++) {
					window.acquire(LONG).whenComplete((ignored, error) -> {
						if (error != null) {
							errors.add(error);
							done.countDown();
							return;
						}
						int now = held.incrementAndGet();
						maxHeld.accumulateAndGet(now, Math::max);
						releaser.execute(() -> {
							held.decrementAndGet();
							window.release();
							done.countDown();
						});
					});
				}
			});
			workers.add(worker);
			worker.start();
		}
		for (Thread worker : workers) {
			worker.join();
		}
		assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
		releaser.shutdown();
		assertThat(errors).isEmpty();
		assertThat(maxHeld.get()).isLessThanOrEqualTo(grant).isPositive();
		assertThat(window.outstanding()).isZero();
	}

	@Test
	void waitersQueuedFromManyThreadsAreGrantedInTheirQueueOrder() throws Exception {
		CreditWindow window = new CreditWindow(1);
		assertThat(window.tryAcquire()).isTrue();
		int threads = 8;
		ConcurrentLinkedQueue<Integer> queued = new ConcurrentLinkedQueue<>();
		ConcurrentLinkedQueue<Integer> granted = new ConcurrentLinkedQueue<>();
		CountDownLatch allQueued = new CountDownLatch(threads * 25);
		List<Thread> workers = new ArrayList<>();
		Object queueOrder = new Object();
		for (int t = 0; t < threads; t++) {
			int base = t * 1000;
			Thread worker = new Thread(() -> {
				for (int i = 0; i < 25; i++) {
					int id = base + i;
					// Acquire and record under one lock, so the recorded order is the queue order.
					synchronized (queueOrder) {
						window.acquire(LONG).thenRun(() -> granted.add(id));
						queued.add(id);
					}
					allQueued.countDown();
				}
			});
			workers.add(worker);
			worker.start();
		}
		assertThat(allQueued.await(10, TimeUnit.SECONDS)).isTrue();
		for (Thread worker : workers) {
			worker.join();
		}
		for (int i = 0; i < threads * 25; i++) {
			window.release();
		}
		assertThat(new ArrayList<>(granted)).containsExactlyElementsOf(new ArrayList<>(queued));
	}

}

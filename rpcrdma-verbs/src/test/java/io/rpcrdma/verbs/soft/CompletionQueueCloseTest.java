package io.rpcrdma.verbs.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.verbs.CompletionOpcode;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.WorkCompletion;

/**
 * A completion added while the queue's handler runs elsewhere, between its drain and its
 * re-arm, finds the queue disarmed: only the handler's second drain sees it. Closing the queue
 * then (as a provider does right after closing its queue pairs, whose flushes are such
 * completions) waits for that drain instead of discarding the completion: the conformance
 * kit's "closing providers" test lost a queue pair's flush so, about once in forty runs.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CompletionQueueCloseTest {

	@Test
	void closingWaitsForAHandlerBetweenItsDrainAndItsRearmToDrainOnceMore() throws Exception {
		List<Long> seen = new CopyOnWriteArrayList<>();
		CountDownLatch drained = new CountDownLatch(1);
		CountDownLatch proceed = new CountDownLatch(1);
		WorkCompletion[] batch = new WorkCompletion[4];
		SoftwareCompletionQueue cq = new SoftwareCompletionQueue(null, 16, (queue) -> {
			drain(queue, batch, seen);
			drained.countDown();
			await(proceed);
			queue.requestNotification();
			drain(queue, batch, seen);
		}, (closed) -> {
		});
		cq.requestNotification();
		Thread handlerThread = new Thread(() -> complete(cq, 1), "handler");
		handlerThread.start();
		await(drained);

		// The queue is disarmed now: this completion notifies nobody.
		complete(cq, 2);
		Thread closer = new Thread(cq::close, "closer");
		closer.start();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (closer.getState() != Thread.State.TIMED_WAITING && closer.isAlive()) {
			assertThat(System.nanoTime() - deadline).as("the closer waits or is done").isNegative();
			Thread.onSpinWait();
		}
		proceed.countDown();
		handlerThread.join(10_000);
		closer.join(10_000);

		assertThat(seen).as("wr_ids the handler drained").containsExactly(1L, 2L);
		assertThat(cq.isClosed()).isTrue();
		assertThat(closer.isAlive()).isFalse();
	}

	@Test
	void aHandlerClosingItsOwnQueueDoesNotWaitForItself() {
		SoftwareCompletionQueue[] self = new SoftwareCompletionQueue[1];
		self[0] = new SoftwareCompletionQueue(null, 16, (queue) -> queue.close(), (closed) -> {
		});
		self[0].requestNotification();
		long start = System.nanoTime();
		complete(self[0], 1);
		assertThat(self[0].isClosed()).isTrue();
		assertThat(System.nanoTime() - start).as("no wait for its own call")
			.isLessThan(SoftwareCompletionQueue.CLOSE_WAIT_NANOS);
	}

	private static void complete(SoftwareCompletionQueue cq, long wrId) {
		cq.completeAndNotify(wrId, CompletionOpcode.RECV, CompletionStatus.WR_FLUSH_ERR, 0, 1, false, 0, "flushed");
	}

	private static void drain(CompletionQueue queue, WorkCompletion[] batch, List<Long> seen) {
		int n;
		while ((n = queue.poll(batch)) > 0) {
			for (int i = 0; i < n; i++) {
				seen.add(batch[i].wrId());
			}
		}
	}

	private static void await(CountDownLatch latch) {
		try {
			assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new AssertionError(ex);
		}
	}

}

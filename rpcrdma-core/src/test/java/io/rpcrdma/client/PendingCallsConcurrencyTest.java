package io.rpcrdma.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Callers register, a "receive thread" completes, callers cancel, deadlines fire and the
 * connection is lost, all at once: every call completes exactly one way, a reply is accepted
 * only by a call that then holds it, and the table ends empty.
 */
class PendingCallsConcurrencyTest {

	private final ExecutorService threads = Executors.newFixedThreadPool(4);

	@AfterEach
	void close() {
		this.threads.shutdownNow();
	}

	@Test
	void racingRepliesCancellationsDeadlinesAndConnectionLossLeaveNothingBehind() throws Exception {
		PendingCalls<Integer> calls = new PendingCalls<>("rdma://server:20049", 100_000, CallTimer.shared());
		List<PendingCall<Integer>> registered = java.util.Collections.synchronizedList(new ArrayList<>());
		AtomicInteger accepted = new AtomicInteger();
		AtomicInteger refused = new AtomicInteger();
		CountDownLatch go = new CountDownLatch(1);

		List<Future<?>> workers = new ArrayList<>();
		for (int t = 0; t < 2; t++) {
			int thread = t;
			workers.add(this.threads.submit(() -> {
				go.await();
				for (int i = 0; i < 5000; i++) {
					try {
						Duration timeout = (i % 10 == 0) ? Duration.ofNanos(1) : Duration.ofMinutes(1);
						PendingCall<Integer> call = calls.register(1, 1, 1, timeout);
						registered.add(call);
						if (i % 5 == thread) {
							call.cancel();
						}
					}
					catch (ConnectionLostException ex) {
						refused.incrementAndGet();
					}
				}
				return null;
			}));
		}
		workers.add(this.threads.submit(() -> {
			go.await();
			for (int round = 0; round < 20_000; round++) {
				PendingCall<Integer> call;
				synchronized (registered) {
					if (registered.isEmpty()) {
						continue;
					}
					call = registered.get(round % registered.size());
				}
				if (calls.complete(call.xid(), call.xid())) {
					accepted.incrementAndGet();
				}
			}
			return null;
		}));
		workers.add(this.threads.submit(() -> {
			go.await();
			while (registered.size() < 4000) {
				Thread.onSpinWait();
			}
			calls.failAll(new IOException("link down"));
			return null;
		}));
		go.countDown();
		for (Future<?> worker : workers) {
			worker.get(60, TimeUnit.SECONDS);
		}

		CompletableFuture.allOf(registered.stream()
			.map((call) -> call.reply().handle((value, failure) -> null))
			.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
		int withReply = 0;
		for (PendingCall<Integer> call : registered) {
			CompletableFuture<Integer> reply = call.reply();
			assertThat(reply).isDone();
			if (!reply.isCompletedExceptionally()) {
				assertThat(reply.join()).isEqualTo(call.xid());
				withReply++;
			}
		}
		assertThat(withReply).isEqualTo(accepted.get());
		assertThat(calls.size()).isZero();
		assertThat(registered.size() + refused.get()).isEqualTo(10_000);
	}

}

package io.rpcrdma.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.RpcReply;

/**
 * Callers register, a "transport" thread answers each registration once, callers cancel,
 * deadlines fire and the connection is lost, all at once, while ended calls are reused: every
 * call completes exactly one way, a reply is read only by the call it answers, and the table
 * ends empty.
 */
class PendingCallsConcurrencyTest {

	private final ExecutorService threads = Executors.newFixedThreadPool(4);

	@AfterEach
	void close() {
		this.threads.shutdownNow();
	}

	@Test
	void racingRepliesCancellationsDeadlinesAndConnectionLossNeverCrossCallsThatAreReused() throws Exception {
		PendingCalls calls = new PendingCalls("rdma://server:20049", 100_000, CallTimer.shared());
		// What the transport holds: each registration, to be answered exactly once.
		ConcurrentLinkedQueue<Registration> transport = new ConcurrentLinkedQueue<>();
		List<Registration> registered = java.util.Collections.synchronizedList(new ArrayList<>());
		AtomicInteger refused = new AtomicInteger();
		CountDownLatch go = new CountDownLatch(1);
		CountDownLatch registering = new CountDownLatch(2);

		List<Future<?>> workers = new ArrayList<>();
		for (int t = 0; t < 2; t++) {
			int thread = t;
			workers.add(this.threads.submit(() -> {
				go.await();
				try {
					for (int i = 0; i < 5000; i++) {
						try {
							Duration timeout = (i % 10 == 0) ? Duration.ofNanos(1) : Duration.ofMinutes(1);
							FutureReply future = new FutureReply();
							ClientCall call = calls.register(1, 1, 1, null, timeout, future);
							future.track(call);
							Registration registration = new Registration(call, call.xid(), future, new AtomicInteger(-1));
							// Read and release at once, so that calls are reused while others race.
							future.thenAccept((reply) -> {
								registration.seen().set(reply.results().readInt());
								reply.release();
							});
							registered.add(registration);
							transport.add(registration);
							if (i % 5 == thread) {
								future.cancel(false);
							}
						}
						catch (ConnectionLostException ex) {
							refused.incrementAndGet();
						}
					}
				}
				finally {
					registering.countDown();
				}
				return null;
			}));
		}
		workers.add(this.threads.submit(() -> {
			go.await();
			while (registering.getCount() > 0 || !transport.isEmpty()) {
				Registration next = transport.poll();
				if (next == null) {
					Thread.onSpinWait();
					continue;
				}
				ClientCalls.deliver(next.call(), ClientCalls.encoded(RpcReply.success(next.xid()), next.xid()));
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

		int withReply = 0;
		for (Registration registration : registered) {
			assertThat(registration.future()).isDone();
			if (!registration.future().isCompletedExceptionally() && !registration.future().isCancelled()) {
				assertThat(registration.seen()).as("the reply read by the call of xid " + registration.xid())
					.hasValue(registration.xid());
				withReply++;
			}
		}
		assertThat(withReply).isPositive();
		assertThat(calls.size()).isZero();
		assertThat(registered.size() + refused.get()).isEqualTo(10_000);
	}

	private record Registration(ClientCall call, int xid, FutureReply future, AtomicInteger seen) {
	}

}

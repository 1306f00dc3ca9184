package io.rpcrdma.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class XidAllocatorTest {

	@Test
	void countsUpFromTheFirstXid() {
		XidAllocator xids = new XidAllocator(100, (xid) -> false);

		assertThat(new int[] { xids.next(), xids.next(), xids.next() }).containsExactly(100, 101, 102);
	}

	@Test
	void wrapsAt2To32() {
		XidAllocator xids = new XidAllocator(0xffff_fffe, (xid) -> false);

		assertThat(new int[] { xids.next(), xids.next(), xids.next() }).containsExactly(0xffff_fffe, 0xffff_ffff, 0);
	}

	@Test
	void skipsXidsStillPending() {
		Set<Integer> pending = Set.of(0xffff_ffff, 0, 2);
		XidAllocator xids = new XidAllocator(0xffff_fffe, pending::contains);

		assertThat(new int[] { xids.next(), xids.next(), xids.next() }).containsExactly(0xffff_fffe, 1, 3);
	}

	@Test
	void startsAtARandomXid() {
		Set<Integer> firsts = new HashSet<>();
		for (int i = 0; i < 8; i++) {
			firsts.add(new XidAllocator((xid) -> false).next());
		}

		assertThat(firsts).as("eight allocators starting at the same xid would be a 2^-224 coincidence").hasSizeGreaterThan(1);
	}

	@Test
	void concurrentCallersNeverReceiveTheSameXid() throws Exception {
		XidAllocator xids = new XidAllocator(-1000, (xid) -> false);
		Set<Integer> seen = ConcurrentHashMap.newKeySet();
		ExecutorService threads = Executors.newFixedThreadPool(4);
		CountDownLatch go = new CountDownLatch(1);
		try {
			Future<?>[] workers = new Future<?>[4];
			for (int t = 0; t < workers.length; t++) {
				workers[t] = threads.submit(() -> {
					go.await();
					for (int i = 0; i < 10_000; i++) {
						if (!seen.add(xids.next())) {
							throw new AssertionError("xid handed out twice");
						}
					}
					return null;
				});
			}
			go.countDown();
			for (Future<?> worker : workers) {
				worker.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(seen).hasSize(40_000);
	}

}

package io.rpcrdma.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The lock-free free list of a size class.
 */
class SizeClassPoolFreeListTest {

	private static final int THREADS = 4;

	private static final int ITERATIONS = 100_000;

	/**
	 * The defence against the ABA problem, replayed step by step: a lessee reads the head
	 * (slot A, whose successor is B) and stalls; meanwhile A and B are leased and A is
	 * released again, so A is back on top but B is leased. A compare-and-set on the stale
	 * head must fail, or the stalled lessee would install B, a leased slot, as the new top
	 * and two lessees would get it. (A stress test rarely hits this window.)
	 */
	@Test
	void aStalePopFailsAfterPopPopPushPutsTheSameSlotBackOnTop() {
		try (LoopbackDomain domain = new LoopbackDomain()) {
			RegisteredMemoryPool pool = new RegisteredMemoryPool(domain.pd, new MemoryPoolConfig(
					List.of(new SizeClass(BufferRole.SEND, 64, 3, 3)), 4096, 4096, Duration.ZERO, false, false, 4096));
			SizeClassPool freeList = pool.sizeClassPool(BufferRole.SEND, 64);
			long stale = freeList.observeHead();
			Slot a = freeList.poll();
			Slot b = freeList.poll();
			freeList.push(a);
			assertThat((int) freeList.observeHead()).as("A is on top again").isEqualTo(a.index);
			assertThat((int) stale).as("the stale head also names A").isEqualTo(a.index);
			assertThat(freeList.tryPop(stale)).as("pop with the stale head").isNull();
			Slot top = freeList.poll();
			assertThat(top).isSameAs(a);
			Slot last = freeList.poll();
			assertThat(last).isNotSameAs(a).isNotSameAs(b);
			assertThat(freeList.poll()).isNull();
			pool.close();
		}
	}

	/**
	 * Hammers the free list with tight lease/release loops; each lessee claims the
	 * buffer's address in a shared map while it holds it, so a buffer handed to two
	 * lessees at once is caught.
	 */
	@Test
	void tightLeaseReleaseLoopsNeverHandOneBufferToTwoLessees() throws Exception {
		try (LoopbackDomain domain = new LoopbackDomain()) {
			RegisteredMemoryPool pool = new RegisteredMemoryPool(domain.pd, new MemoryPoolConfig(
					List.of(new SizeClass(BufferRole.SEND, 64, 3, 3)), 4096, 4096, Duration.ZERO, false, false, 4096));
			ConcurrentHashMap<Long, Integer> holders = new ConcurrentHashMap<>();
			Queue<String> failures = new ConcurrentLinkedQueue<>();
			CountDownLatch start = new CountDownLatch(1);
			CountDownLatch done = new CountDownLatch(THREADS);
			List<Thread> threads = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				int id = t;
				Thread thread = new Thread(() -> {
					try {
						start.await();
						for (int i = 0; i < ITERATIONS && failures.isEmpty(); i++) {
							RegisteredBuffer buffer = pool.tryLease(BufferRole.SEND, 64);
							if (buffer == null) {
								continue;
							}
							Integer other = holders.putIfAbsent(buffer.address(), id);
							if (other != null) {
								failures.add("Buffer at 0x" + Long.toHexString(buffer.address()) + " leased by lessee "
										+ id + " while lessee " + other + " held it");
								return;
							}
							holders.remove(buffer.address());
							buffer.release();
						}
					}
					catch (Throwable ex) {
						failures.add("lessee " + id + " failed: " + ex);
					}
					finally {
						done.countDown();
					}
				});
				threads.add(thread);
				thread.start();
			}
			start.countDown();
			assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
			assertThat(failures).isEmpty();
			assertThat(pool.stats().sizeClass("send-64B").leased()).isZero();
			List<RegisteredBuffer> drained = new ArrayList<>();
			RegisteredBuffer buffer;
			while ((buffer = pool.tryLease(BufferRole.SEND, 64)) != null) {
				drained.add(buffer);
			}
			assertThat(drained).extracting(RegisteredBuffer::address).hasSize(3).doesNotHaveDuplicates();
			pool.close();
		}
	}

}

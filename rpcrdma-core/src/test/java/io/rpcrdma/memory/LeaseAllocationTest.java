package io.rpcrdma.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Leasing and releasing allocate nothing in steady state when leak tracking is off: the
 * lease objects are created with the memory and reused. Measured with the JVM's per-thread
 * allocation counter.
 */
class LeaseAllocationTest {

	private static final int CYCLES = 20_000;

	@Test
	void leaseAndReleaseOfInlineBuffersAllocateNothing() throws Exception {
		com.sun.management.ThreadMXBean threads = threadBean();
		try (LoopbackDomain domain = new LoopbackDomain()) {
			RegisteredMemoryPool pool = new RegisteredMemoryPool(domain.pd, new MemoryPoolConfig(
					List.of(new SizeClass(BufferRole.RECEIVE, 1024, 64, 64), new SizeClass(BufferRole.SEND, 1024, 64, 64)),
					64 << 10, 1 << 20, Duration.ofSeconds(1), false, true, 1 << 20));
			cycle(pool); // warm up: class loading, JIT, lazily created internals
			long before = threads.getCurrentThreadAllocatedBytes();
			cycle(pool);
			long allocated = threads.getCurrentThreadAllocatedBytes() - before;
			// Any garbage per lease would be at least 16 bytes a cycle; the JIT and the
			// measurement itself account for a few kilobytes in all, far below one byte a cycle.
			assertThat(allocated).as("bytes allocated by %d lease/release cycles", 2 * CYCLES)
				.isLessThan(2L * CYCLES);
			pool.close();
		}
	}

	private static void cycle(RegisteredMemoryPool pool) throws InterruptedException {
		for (int i = 0; i < CYCLES; i++) {
			RegisteredBuffer receive = pool.lease(BufferRole.RECEIVE, 1024);
			RegisteredBuffer send = pool.tryLease(BufferRole.SEND, 512);
			send.buffer().putInt(0, i);
			receive.release();
			send.release();
		}
	}

	private static com.sun.management.ThreadMXBean threadBean() {
		java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
		Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean,
				"this JVM cannot count per-thread allocation");
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
		Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
				"per-thread allocation counting is off");
		return threads;
	}

}

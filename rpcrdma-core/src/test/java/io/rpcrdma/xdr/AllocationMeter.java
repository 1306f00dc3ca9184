package io.rpcrdma.xdr;

import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Assumptions;

/**
 * Measures the bytes the current thread allocates while running some code, to prove a
 * decoder allocated nothing from a hostile count. Uses HotSpot's per-thread allocation
 * counter; the test is skipped on a JVM without one.
 */
public final class AllocationMeter {

	private AllocationMeter() {
	}

	/**
	 * @param action the code to measure; exceptions it throws are swallowed
	 * @return bytes allocated by this thread while {@code action} ran
	 */
	public static long bytesAllocatedBy(Runnable action) {
		if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean)
				|| !bean.isThreadAllocatedMemorySupported() || !bean.isThreadAllocatedMemoryEnabled()) {
			Assumptions.abort("this JVM does not count allocated bytes per thread");
			return -1;
		}
		long thread = Thread.currentThread().getId();
		// Warm up once so class loading and the exception's first stack trace are not counted.
		run(action);
		long before = bean.getThreadAllocatedBytes(thread);
		run(action);
		return bean.getThreadAllocatedBytes(thread) - before;
	}

	private static void run(Runnable action) {
		try {
			action.run();
		}
		catch (RuntimeException ex) {
			// expected: the caller asserts on the exception separately
		}
	}

}

package io.rpcrdma.protocol;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;

/** Measures the bytes the current thread allocates, where the JVM can tell. */
final class Allocations {

	private Allocations() {
	}

	static long allocatedBy(Runnable action) {
		java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
		assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "JVM cannot measure thread allocation");
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
		assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
				"JVM cannot measure thread allocation");
		long thread = Thread.currentThread().getId();
		action.run(); // warm up: class loading and first-call costs are not the decoder's
		long before = threads.getThreadAllocatedBytes(thread);
		action.run();
		return threads.getThreadAllocatedBytes(thread) - before;
	}

}

package io.rpcrdma.transport;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One daemon timer thread for the deadlines of all connections (credit waits, RDMA_DONE
 * reclaim). Timer tasks only complete futures or release buffers; they never block.
 */
final class TransportTimers {

	private static final AtomicInteger threads = new AtomicInteger();

	static final ScheduledExecutorService TIMER;

	static {
		ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, "rpcrdma-transport-timer-" + threads.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
		// Cancelled deadlines (the common case: the credit came in time) leave the queue at once.
		executor.setRemoveOnCancelPolicy(true);
		TIMER = executor;
	}

	private TransportTimers() {
	}

}

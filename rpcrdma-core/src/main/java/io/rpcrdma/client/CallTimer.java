package io.rpcrdma.client;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs call deadlines. One timer serves every pending call (never a thread per call); tests
 * substitute a manual one to control time.
 */
@FunctionalInterface
public interface CallTimer {

	/**
	 * Runs a task once after a delay, unless cancelled first.
	 * @param delay how long to wait
	 * @param task what to run; it must not block
	 * @return a handle cancelling the task
	 */
	Timeout schedule(Duration delay, Runnable task);

	/**
	 * A scheduled task.
	 */
	@FunctionalInterface
	interface Timeout {

		/** Cancels the task if it has not run; no effect otherwise. */
		void cancel();

	}

	/**
	 * @param scheduler the executor to run deadlines on
	 * @return a timer scheduling on it
	 */
	static CallTimer of(ScheduledExecutorService scheduler) {
		return (delay, task) -> {
			ScheduledFuture<?> future = scheduler.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
			return () -> future.cancel(false);
		};
	}

	/**
	 * @return a timer on one shared daemon thread, {@code rpcrdma-call-timer}: a timing wheel
	 * ({@link DeadlineWheel}, resolution 5 ms, never early) that forgets cancelled deadlines at
	 * once, so cancelled calls leave nothing behind
	 */
	static CallTimer shared() {
		return SharedTimer.INSTANCE;
	}

}

/** The process-wide timer thread. */
final class SharedTimer {

	static final CallTimer INSTANCE = new DeadlineWheel("rpcrdma-call-timer");

	private SharedTimer() {
	}

}

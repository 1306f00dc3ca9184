package io.rpcrdma.log;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongFunction;

/**
 * Counts connections refused for want of resources and says so at WARNING at most once per
 * interval: a flood of connection attempts is not a flood of log lines, and the count says
 * how many there were. Thread-safe.
 */
public final class RefusalLog {

	/** The interval the project's refusal warnings use. */
	public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);

	private final System.Logger logger;

	private final long intervalNanos;

	private final LongAdder count = new LongAdder();

	private final AtomicLong lastLogged = new AtomicLong();

	/**
	 * @param logger where the warnings go
	 * @param interval the least time between two warnings
	 */
	public RefusalLog(System.Logger logger, Duration interval) {
		this.logger = logger;
		this.intervalNanos = interval.toNanos();
	}

	/**
	 * Counts one refusal and logs it unless a warning was logged within the interval.
	 * @param message makes the warning from the count so far, this one included; called only
	 * when it is logged
	 */
	public void refused(LongFunction<String> message) {
		this.count.increment();
		long now = System.nanoTime();
		long last = this.lastLogged.get();
		if ((last == 0 || now - last >= this.intervalNanos) && this.lastLogged.compareAndSet(last, now)) {
			this.logger.log(System.Logger.Level.WARNING, message.apply(this.count.sum()));
		}
	}

	/** @return the refusals counted so far */
	public long count() {
		return this.count.sum();
	}

}

package io.rpcrdma.verbs.siw;

import java.time.Duration;

/**
 * How long the receive path may wait inside an FPDU whose first bytes arrived, or between the
 * segments of a DDP message it is inside ({@link SiwSettings#fpduTimeout()}). FPDUs follow one
 * another on the stream (RFC 5044 §4), so while one is incomplete nothing else on the
 * connection can be received: without a deadline a peer that sends a header and stops would
 * hold the connection, its receives and any Read it answers, forever.
 * <p>
 * The clock starts when the receive path, having executed every complete FPDU it read, is
 * inside a frame or message and about to wait for the socket; every FPDU that completes
 * stops it, so each FPDU gets the whole time. Bytes that trickle in do not restart it: a peer
 * sending a byte now and then is held to the same deadline as one sending nothing. Between
 * messages there is no deadline: an idle connection is not a stalled one.
 * <p>
 * Part of the receive path's framing state: used by whichever thread holds the
 * {@link ReceiveRole}, whose hand-overs order it. Allocation-free.
 */
final class FpduDeadline {

	private final long timeoutNanos;

	private boolean running;

	private long startedAt;

	FpduDeadline(Duration timeout) {
		this.timeoutNanos = timeout.toNanos();
	}

	/** @return the timeout, for messages */
	long timeoutMillis() {
		return this.timeoutNanos / 1_000_000;
	}

	/**
	 * An FPDU completed, or the stream is between messages: the clock stops, and whatever
	 * comes next gets the whole timeout.
	 */
	void stop() {
		this.running = false;
	}

	/**
	 * The receive path, inside an FPDU or a DDP message, is about to wait for the socket: the
	 * clock starts unless it runs.
	 * @param now {@link System#nanoTime()}
	 * @return how long it may wait, in nanoseconds; {@code <= 0} once the deadline passed
	 */
	long remaining(long now) {
		if (!this.running) {
			this.running = true;
			this.startedAt = now;
		}
		return this.timeoutNanos - (now - this.startedAt);
	}

	/**
	 * The longest wait for data before looking again.
	 * @param remainingNanos what {@link #remaining} returned
	 * @param maxMillis the wait without a deadline
	 * @return at most {@code maxMillis}, at least 1, and not past the deadline by more than a
	 * millisecond
	 */
	static long waitMillis(long remainingNanos, long maxMillis) {
		long millis = remainingNanos / 1_000_000 + ((remainingNanos % 1_000_000 > 0) ? 1 : 0);
		return Math.max(1, Math.min(maxMillis, millis));
	}

}

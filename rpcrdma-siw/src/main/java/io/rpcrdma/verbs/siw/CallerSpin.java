package io.rpcrdma.verbs.siw;

import java.time.Duration;

/**
 * Whether, and for how long, a caller that reads its own reply ({@link ReceiveRole}) polls the
 * socket before it sleeps in {@code epoll} ({@link SiwSettings#callerSpin()}).
 * <p>
 * A blocking wait costs the caller a wake-up when the reply comes: on an idle host the CPU has
 * gone to sleep by then, and waking it is most of a small call's round trip. Polling for a
 * little longer than a round trip catches the reply on a running CPU instead. A reply that
 * misses the poll (a slow handler, a large result, a busy host) made the poll pure cost, so
 * each miss doubles the number of waits that skip the poll, up to {@value #MAX_SKIP}, and a
 * hit ends the back-off: a connection whose server answers slowly polls once in
 * {@value #MAX_SKIP} waits.
 * <p>
 * Not thread-safe: only the thread holding the receive role uses it, and the role's hand-overs
 * order its state between holders.
 */
final class CallerSpin {

	/** The most waits a run of misses makes skip the poll. */
	static final int MAX_SKIP = 64;

	private final long pollNanos;

	// Waits left that do not poll, and how many the next miss makes skip.
	private int skip;

	private int backOff;

	private long hits;

	private long misses;

	/**
	 * A policy polling for the given time.
	 * @param poll how long to poll, zero for never
	 */
	CallerSpin(Duration poll) {
		this.pollNanos = poll.toNanos();
	}

	/**
	 * Asked before each wait for data.
	 * @return how long this wait polls, zero to go straight to {@code epoll}
	 */
	long pollNanos() {
		if (this.pollNanos == 0) {
			return 0;
		}
		if (this.skip > 0) {
			this.skip--;
			return 0;
		}
		return this.pollNanos;
	}

	/** Data came while polling. */
	void hit() {
		this.backOff = 0;
		this.hits++;
	}

	/** The poll ran out without data. */
	void missed() {
		this.backOff = (this.backOff == 0) ? 1 : Math.min(this.backOff * 2, MAX_SKIP);
		this.skip = this.backOff;
		this.misses++;
	}

	/** @return polls that read data, as the role's holder last left them */
	long hits() {
		return this.hits;
	}

	/** @return polls that ran out, as the role's holder last left them */
	long misses() {
		return this.misses;
	}

}

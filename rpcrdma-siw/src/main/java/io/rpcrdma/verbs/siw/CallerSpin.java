package io.rpcrdma.verbs.siw;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

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
 * {@value #MAX_SKIP} waits. And only a few callers poll at once ({@link #MAX_POLLING}); the
 * others wait in {@code epoll} at once.
 * <p>
 * An I/O thread backs off its poll after serving a ready socket ({@link SiwIoThread}) by the
 * same rule, with an instance of its own; the places of {@link #startPolling()} are for
 * callers only, since the I/O threads are few and produce the replies callers wait for.
 * <p>
 * Not thread-safe: only the thread holding the receive role uses it, and the role's hand-overs
 * order its state between holders; an I/O thread's own instance only that thread.
 */
final class CallerSpin {

	/** The most waits a run of misses makes skip the poll. */
	static final int MAX_SKIP = 64;

	/**
	 * The most callers of this JVM polling at once: half the processors, at least one. A caller
	 * polls so that its reply finds a running CPU; many polling at once take the CPUs from the
	 * threads that produce the replies (the server's, the I/O threads), so that every reply
	 * comes later and costs more CPU (16 connections on 2 processors: 2.8 reads and 0.5
	 * yields per call, CPU time per call twice that of callers that do not poll).
	 */
	static final int MAX_POLLING = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);

	private static final AtomicInteger polling = new AtomicInteger();

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

	/**
	 * Takes one of the {@link #MAX_POLLING} places of callers polling at once.
	 * @return whether this caller may poll now; if so it calls {@link #stopPolling()} after
	 */
	static boolean startPolling() {
		while (true) {
			int now = polling.get();
			if (now >= MAX_POLLING) {
				return false;
			}
			if (polling.compareAndSet(now, now + 1)) {
				return true;
			}
		}
	}

	/** Gives back the place {@link #startPolling()} took. */
	static void stopPolling() {
		polling.decrementAndGet();
	}

	/** @return callers polling now, in this JVM */
	static int pollingNow() {
		return polling.get();
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

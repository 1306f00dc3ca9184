package io.rpcrdma.transport;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A requester's view of the responder's credit grant (RFC 5666 §3.3, RFC 8166 §3.3.1): how
 * many requests it may have outstanding. It starts with one credit, as a requester knows no
 * grant before the first reply; every reply's rdma_credit replaces the grant. A call takes
 * a credit before it is sent and gives it back when its reply (or RDMA_DONE) is done.
 * <p>
 * Out of credits, {@link #acquire(Duration)} returns a future that completes when a credit is
 * handed over, strictly in arrival order, or fails with {@link CreditWaitTimeoutException} at
 * the deadline: no thread waits, so completion handlers may release credits freely. When the
 * grant shrinks, calls already sent stay outstanding and no new one starts until the count
 * is below the new grant. Thread-safe.
 */
public final class CreditWindow {

	private static final CompletableFuture<Void> GRANTED = CompletableFuture.completedFuture(null);

	private final int maxCredits;

	private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();

	private int limit = 1;

	private int outstanding;

	/** Calls that found no credit free and queued: how often the grant held callers back. */
	private long waited;

	private TransportException closed;

	/**
	 * A window starting with one credit.
	 * @param maxCredits the most credits used even if more are granted: the number of
	 * receives this side posted for replies
	 */
	public CreditWindow(int maxCredits) {
		if (maxCredits < 1) {
			throw new IllegalArgumentException("maxCredits must be at least 1, got " + maxCredits);
		}
		this.maxCredits = maxCredits;
	}

	/**
	 * Takes a credit now or when one is free.
	 * @param timeout the longest wait
	 * @return a future completing when the caller holds a credit; it must then be
	 * {@linkplain #release() released} exactly once
	 */
	public CompletableFuture<Void> acquire(Duration timeout) {
		Waiter waiter;
		synchronized (this) {
			if (this.closed != null) {
				return CompletableFuture.failedFuture(this.closed);
			}
			if (this.waiters.isEmpty() && this.outstanding < this.limit) {
				this.outstanding++;
				return GRANTED;
			}
			waiter = new Waiter();
			this.waiters.addLast(waiter);
			this.waited++;
		}
		long nanos = Math.max(1, timeout.toNanos());
		waiter.deadline = TransportTimers.TIMER.schedule(() -> expire(waiter, timeout), nanos, TimeUnit.NANOSECONDS);
		if (waiter.isDone()) {
			waiter.deadline.cancel(false);
		}
		return waiter;
	}

	/**
	 * Takes a credit if one is free now and nobody is waiting.
	 * @return whether a credit was taken
	 */
	public synchronized boolean tryAcquire() {
		if (this.closed == null && this.waiters.isEmpty() && this.outstanding < this.limit) {
			this.outstanding++;
			return true;
		}
		return false;
	}

	/**
	 * Gives a credit back; hands it to the longest waiter if the grant allows.
	 */
	public void release() {
		synchronized (this) {
			if (this.outstanding <= 0) {
				throw new IllegalStateException("A credit was released that was not acquired");
			}
			this.outstanding--;
		}
		handOver();
	}

	/**
	 * Applies a grant received in a reply's rdma_credit.
	 * @param granted the responder's grant, an unsigned 32-bit value
	 */
	public void updateGrant(int granted) {
		long value = Integer.toUnsignedLong(granted);
		synchronized (this) {
			// A grant of zero would leave a requester with nothing outstanding unable to ever
			// send again (RFC 8166 §3.3.1); such a responder is broken, so keep one credit.
			this.limit = (int) Math.max(1, Math.min(value, this.maxCredits));
		}
		handOver();
	}

	/**
	 * Fails every waiter and every later acquire.
	 * @param cause why
	 */
	public void close(TransportException cause) {
		ArrayDeque<Waiter> failed;
		synchronized (this) {
			if (this.closed != null) {
				return;
			}
			this.closed = cause;
			failed = new ArrayDeque<>(this.waiters);
			this.waiters.clear();
		}
		for (Waiter waiter : failed) {
			waiter.cancelDeadline();
			waiter.completeExceptionally(cause);
		}
	}

	/** @return the current grant, as used (at least 1, at most the configured maximum) */
	public synchronized int limit() {
		return this.limit;
	}

	/** @return credits held by calls */
	public synchronized int outstanding() {
		return this.outstanding;
	}

	/** @return calls waiting for a credit */
	public synchronized int waiting() {
		return this.waiters.size();
	}

	/**
	 * @return calls that had to wait for a credit since the window was created, whether they
	 * got one, timed out or failed: a high count means the responder's grant (RFC 8166 §3.3.1)
	 * holds the requester back
	 */
	public synchronized long waitedAcquisitions() {
		return this.waited;
	}

	private void handOver() {
		while (true) {
			Waiter next;
			synchronized (this) {
				if (this.waiters.isEmpty() || this.outstanding >= this.limit) {
					return;
				}
				next = this.waiters.pollFirst();
				this.outstanding++;
			}
			next.cancelDeadline();
			// Completed outside the lock: the continuation may send the call at once.
			next.complete(null);
		}
	}

	private void expire(Waiter waiter, Duration timeout) {
		int grant;
		synchronized (this) {
			if (!this.waiters.remove(waiter)) {
				return;
			}
			grant = this.limit;
		}
		waiter.completeExceptionally(new CreditWaitTimeoutException("No credit became free within " + timeout
				+ ": all " + grant + " granted credits are held by unanswered calls (RFC 5666 §3.3); "
				+ "ask the responder for more credits or lower the call rate"));
	}

	private static final class Waiter extends CompletableFuture<Void> {

		volatile ScheduledFuture<?> deadline;

		void cancelDeadline() {
			ScheduledFuture<?> scheduled = this.deadline;
			if (scheduled != null) {
				scheduled.cancel(false);
			}
		}

	}

}

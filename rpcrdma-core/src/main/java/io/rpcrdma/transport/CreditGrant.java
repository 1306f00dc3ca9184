package io.rpcrdma.transport;

/**
 * The grant a responder gives one connection, following its load ({@link CreditGrowth}):
 * it starts small, doubles while the requester has every credit in use, and halves for each
 * {@link CreditGrowth#shrinkAfter()} in which the requester used at most half of it, never
 * below the initial grant. Every change goes through the shared {@link CreditBudget}, which
 * may hold growth back or {@linkplain CreditBudget#trim trim} a connection above its fair
 * share. Decided on the connection's completion thread as each request arrives; read by the
 * threads that send replies.
 */
final class CreditGrant {

	private final CreditBudget budget;

	private final int max;

	private final int initial;

	private final long shrinkNanos;

	/** The grant replies carry, published once the receives for it are posted. */
	private volatile int grant;

	/** The grant decided as the latest request arrived, not yet published (completion thread). */
	private int decided;

	/** When the current under-use interval started (completion thread). */
	private long intervalStart;

	/** The most requests outstanding in the current interval (completion thread). */
	private int peak;

	/**
	 * @param budget the credits all connections share
	 * @param max the most this connection gets ({@link TransportConfig#creditsGranted()})
	 * @param growth how the grant follows load
	 */
	CreditGrant(CreditBudget budget, int max, CreditGrowth growth) {
		this.budget = budget;
		this.max = max;
		this.initial = initial(max, growth);
		this.shrinkNanos = growth.shrinkAfter().toNanos();
	}

	/**
	 * @param max the most a connection gets
	 * @param growth how the grant follows load
	 * @return the grant of a connection's first reply
	 */
	static int initial(int max, CreditGrowth growth) {
		return Math.max(1, Math.min(growth.initialCredits(), max));
	}

	/**
	 * A request arrived: the grant follows the load it shows. The new grant is
	 * {@link #decided()} but not sent until {@link #publish} (receives first).
	 * @param requested the request's rdma_credit, unsigned
	 * @param outstanding requests received and not answered, this one included
	 * @param now {@link System#nanoTime()}
	 */
	void onRequest(int requested, int outstanding, long now) {
		int wanted = (int) Math.max(1, Math.min(Integer.toUnsignedLong(requested), this.max));
		int current = this.decided;
		if (current == 0) {
			current = this.budget.grow(0, Math.min(this.initial, wanted));
			this.intervalStart = now;
			this.peak = 0;
		}
		else if (now - this.intervalStart >= this.shrinkNanos) {
			current = shrinkAfterInterval(current, now);
		}
		this.peak = Math.max(this.peak, outstanding);
		if (outstanding >= current && current < wanted) {
			// Every credit in use (RFC 8166 §3.3.1 lets each reply carry a new grant): double.
			current = this.budget.grow(current, (int) Math.min(wanted, 2L * current));
		}
		this.decided = current;
	}

	/**
	 * @return the grant decided, which receives are posted for before it is published; the
	 * initial grant before the first request
	 */
	int decided() {
		return (this.decided == 0) ? this.initial : this.decided;
	}

	/**
	 * Lets replies carry the decided grant, or as much of it as the posted receives cover.
	 * @param covered the requests the posted receives can take
	 */
	void publish(int covered) {
		int next = this.decided;
		if (next == 0) {
			return;
		}
		if (covered < next) {
			// The pool's receive budget is spent: grant only what was posted for.
			int kept = Math.max(1, Math.min(next, Math.max(covered, this.grant)));
			if (kept < next) {
				this.budget.shrink(next, kept);
				this.decided = kept;
				next = kept;
			}
		}
		this.grant = next;
	}

	private int shrinkAfterInterval(int current, long now) {
		int next = current;
		if (this.peak <= current / 2) {
			long periods = (now - this.intervalStart) / this.shrinkNanos;
			int floor = Math.min(this.initial, current);
			next = (int) Math.max(floor, current >> Math.min(periods, 31));
			if (next < current) {
				this.budget.shrink(current, next);
			}
		}
		next = this.budget.trim(next);
		this.intervalStart = now;
		this.peak = 0;
		return next;
	}

	/** @return the grant now: 0 before the first request */
	int current() {
		return this.grant;
	}

	/**
	 * The grant a reply carries: at least 1 (RFC 8166 §3.3.1), the initial grant before the
	 * first request.
	 * @return the grant to send
	 */
	int advertised() {
		int current = this.grant;
		return (current == 0) ? this.initial : current;
	}

	/** Gives the grant back to the budget: the connection closed. */
	void release() {
		int held = this.decided;
		if (held > 0) {
			this.budget.release(held);
		}
	}

}

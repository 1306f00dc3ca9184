package io.rpcrdma.transport;

/**
 * The grant a responder gives one connection, taken from the server's shared
 * {@link CreditBudget} (RFC 8166 §3.3.1: the grant may change in every reply). A new
 * connection is granted what the configuration allows ({@link TransportConfig#creditsGranted()})
 * while the budget is not under pressure, or its fair share of the budget when it is, never
 * less than {@link CreditBudget#FLOOR}. It is decided when the connection is made, so that
 * the receives for it are posted before the requester can send anything, and the first reply
 * carries it: a requester whose first calls are slow (long polls, calls waiting on each
 * other) has its full grant from the start rather than one that grows only through replies.
 * <p>
 * Each request recomputes it: the first one brings it down to what the requester asks for if
 * that is less, later ones grow it towards what the requester asks (up to the configuration
 * and the budget), and a connection above its fair share while the budget is under pressure is
 * {@linkplain CreditBudget#trim trimmed} to the share in its next reply.
 * Without pressure a grant is never lowered: the last reply's grant is what the requester may
 * use, and the posted receives must cover it whatever the connection does next. Decided on the
 * connection's completion thread as each request arrives; read by the threads that send replies.
 */
final class CreditGrant {

	private final CreditBudget budget;

	private final int max;

	/** The grant replies carry, published once the receives for it are posted. */
	private volatile int grant;

	/** The grant decided as the latest request arrived, not yet published (completion thread). */
	private volatile int decided;

	/** Whether a request has told what the requester asks for (completion thread). */
	private boolean asked;

	/**
	 * Takes the connection's first grant from the budget.
	 * @param budget the credits all connections share
	 * @param max the most this connection gets ({@link TransportConfig#creditsGranted()})
	 */
	CreditGrant(CreditBudget budget, int max) {
		this.budget = budget;
		this.max = Math.max(1, max);
		this.decided = budget.grow(0, this.max);
	}

	/**
	 * A request arrived: the grant grows towards what it asks, or is trimmed to the fair share
	 * while the budget is under pressure. The new grant is {@link #decided()} but not sent
	 * until {@link #publish} (receives first).
	 * @param requested the request's rdma_credit, unsigned
	 */
	void onRequest(int requested) {
		int wanted = (int) Math.max(1, Math.min(Integer.toUnsignedLong(requested), this.max));
		int current = this.decided;
		if (!this.asked) {
			// The grant taken when the connection was made did not know what the requester
			// would ask for (its rdma_credit, RFC 8166 §3.3.1): its first reply grants no more
			// than that. The receives posted for the larger one stay until the requests it
			// allowed are accounted for (CreditHorizon).
			this.asked = true;
			if (wanted < current) {
				this.budget.shrink(current, wanted);
				current = wanted;
			}
		}
		int next = (wanted > current) ? this.budget.grow(current, wanted) : current;
		this.decided = this.budget.trim(next);
	}

	/** @return the grant decided, which receives are posted for before it is published */
	int decided() {
		return this.decided;
	}

	/**
	 * Lets replies carry the decided grant, or as much of it as the posted receives cover.
	 * @param covered the requests the posted receives can take
	 */
	void publish(int covered) {
		int next = this.decided;
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

	/** @return the grant replies carry now: 0 before the first request */
	int current() {
		return this.grant;
	}

	/**
	 * The grant a reply carries: at least 1 (RFC 8166 §3.3.1), the first grant decided before
	 * the first request.
	 * @return the grant to send
	 */
	int advertised() {
		int current = this.grant;
		return (current == 0) ? this.decided : current;
	}

	/** Gives the grant back to the budget: the connection closed. */
	void release() {
		this.budget.release(this.decided);
	}

}

package io.rpcrdma.transport;

/**
 * The grant a responder gives one connection, taken from the server's shared
 * {@link CreditBudget} (RFC 8166 §3.3.1: the grant may change in every reply). A new
 * connection holds the budget's {@linkplain CreditBudget#unasked floor}, not charged to the
 * budget, until its first request: RFC 8166 §3.3.1 (and RFC 5666 §3.3 before it) has a
 * requester assume one credit until its first reply, so an idle connection needs no more, and
 * connections that never call (one peer's hundreds, say) take nothing from those that do. The
 * first request charges the budget for what it asks (its rdma_credit), as far as the
 * configuration ({@link TransportConfig#creditsGranted()}) and the budget allow, and its reply
 * carries that grant; the receives for it are posted before that reply is sent, and before the
 * requester can have learnt the grant.
 * <p>
 * Each later request recomputes it: it grows towards what the requester asks (up to the
 * configuration and the budget), and a connection above its fair share while the budget is
 * under pressure is {@linkplain CreditBudget#trim trimmed} to the share in its next reply.
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

	/**
	 * Whether a request has told what the requester asks for, and the budget is charged for the
	 * grant: written on the completion thread, read by {@link #release} and {@link #publish}.
	 */
	private volatile boolean asked;

	/**
	 * The connection's grant before its first request: the floor, not charged to the budget.
	 * @param budget the credits all connections share
	 * @param max the most this connection gets ({@link TransportConfig#creditsGranted()})
	 */
	CreditGrant(CreditBudget budget, int max) {
		this.budget = budget;
		this.max = Math.max(1, max);
		this.decided = budget.unasked(this.max);
	}

	/**
	 * A request arrived: the grant grows towards what it asks, or is trimmed to the fair share
	 * while the budget is under pressure. The new grant is {@link #decided()} but not sent
	 * until {@link #publish} (receives first).
	 * @param requested the request's rdma_credit, unsigned
	 * @return whether it was the connection's first request, which charged the budget
	 */
	boolean onRequest(int requested) {
		int wanted = (int) Math.max(1, Math.min(Integer.toUnsignedLong(requested), this.max));
		if (!this.asked) {
			// The first request says what the requester asks for (its rdma_credit, RFC 8166
			// §3.3.1): the budget is charged for that, not for the floor held so far.
			this.decided = this.budget.trim(this.budget.grow(0, wanted));
			this.asked = true;
			return true;
		}
		int current = this.decided;
		int next = (wanted > current) ? this.budget.grow(current, wanted) : current;
		this.decided = this.budget.trim(next);
		return false;
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
				if (this.asked) {
					this.budget.shrink(next, kept);
				}
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

	/** Gives the grant back to the budget, if it was charged: the connection closed. */
	void release() {
		if (this.asked) {
			this.budget.release(this.decided);
		}
	}

}

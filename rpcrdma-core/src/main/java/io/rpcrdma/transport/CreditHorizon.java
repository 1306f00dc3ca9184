package io.rpcrdma.transport;

/**
 * How many requests a requester may have sent a responder so far, by the rule of RFC 8166
 * §3.3.1: the requester's limit is the latest grant it received minus its requests in flight,
 * known from Send ordering. A reply that is the m-th the requester processes, granting g,
 * lets it send requests up to number m + g in all; the horizon is the highest such number
 * over the replies sent. A request beyond it exceeds the grant, whatever grant the responder
 * has chosen since, and the receives that requests may still fill are the horizon minus the
 * requests received. So a grant may shrink at once: receives are given back only as the
 * requests sent under the larger grant arrive, never before.
 * <p>
 * Replies are stamped and posted by several threads, so one stamped earlier may be posted
 * (and processed) later than one stamped after it. Each stamp therefore counts the largest
 * grant of the replies stamped since no post was last pending, which covers any such
 * reordering. A requester that does not apply the grant of an RDMA_ERROR reply (draft §5: only
 * a non-error message reports the credit limit) keeps the grant of the last other reply, so
 * error replies count that one too.
 */
final class CreditHorizon {

	/** Replies stamped. Guarded by this. */
	private long replies;

	/** Stamped replies whose Send is not posted yet. Guarded by this. */
	private int pending;

	/** The largest grant stamped since {@link #pending} was last zero. Guarded by this. */
	private int pendingHigh;

	/** The grant of the latest reply other than RDMA_ERROR. Guarded by this. */
	private int lastGrant;

	private volatile long horizon;

	/** Requests received: used on the completion thread only. */
	private long requests;

	/**
	 * @param before the requests the responder accepts before its first reply, until the
	 * first request arrives ({@link #firstGrant}): RFC 8166 §3.3.1 asks a requester for one
	 */
	CreditHorizon(int before) {
		this.horizon = before;
		this.lastGrant = before;
	}

	/**
	 * The first request arrived and the grant its reply will carry is decided: the requests
	 * sent before that reply, up to that grant, are within it. RFC 8166 §3.3.1 lets a requester
	 * assume one credit before its first reply, but requesters that pipeline their first calls
	 * (as this responder allowed when it took the full grant at accept) stay served; the
	 * receives for them are posted as the first request is handled, before its reply, and siw
	 * holds a Send that finds no receive until one is posted ({@code siw.rnr-grace}).
	 * @param grant the first grant decided
	 */
	synchronized void firstGrant(int grant) {
		if (this.replies == 0 && this.pending == 0 && grant > this.horizon) {
			this.horizon = grant;
			this.lastGrant = grant;
		}
	}

	/**
	 * A reply is about to be posted carrying {@code grant}; {@link #posted()} must follow once
	 * it is posted or failed.
	 * @param grant its rdma_credit
	 * @param error whether it is an RDMA_ERROR
	 * @param awaitsDone whether it conveys Read chunks, whose credit the requester holds until
	 * it sends RDMA_DONE (RFC 5666 §3.3, §11): counted by {@link #acknowledged()} instead
	 */
	synchronized void stamp(int grant, boolean error, boolean awaitsDone) {
		if (!awaitsDone) {
			this.replies++;
		}
		if (this.pending++ == 0) {
			this.pendingHigh = 0;
		}
		this.pendingHigh = Math.max(this.pendingHigh, grant);
		int counted = this.pendingHigh;
		if (error) {
			counted = Math.max(counted, this.lastGrant);
		}
		else {
			this.lastGrant = grant;
		}
		long edge = this.replies + counted;
		if (edge > this.horizon) {
			this.horizon = edge;
		}
	}

	/**
	 * A reply that awaited RDMA_DONE got it, or stopped waiting: its credit is free, under the
	 * latest grant sent.
	 */
	synchronized void acknowledged() {
		this.replies++;
		long edge = this.replies + Math.max(this.lastGrant, (this.pending > 0) ? this.pendingHigh : 0);
		if (edge > this.horizon) {
			this.horizon = edge;
		}
	}

	/** The reply stamped last by this thread was posted, or failed to be. */
	synchronized void posted() {
		this.pending--;
	}

	/**
	 * A request arrived (completion thread).
	 * @return whether the requester was allowed to send it
	 */
	boolean arrived() {
		return ++this.requests <= this.horizon;
	}

	/**
	 * Whether a request arriving now would be within the grant, without counting it
	 * (completion thread).
	 * @return whether the next request is allowed
	 */
	boolean nextAllowed() {
		return this.requests + 1 <= this.horizon;
	}

	/** @return the requests that may still arrive under the grants sent so far (completion thread) */
	int mayStillArrive() {
		return (int) Math.max(0, Math.min(Integer.MAX_VALUE, this.horizon - this.requests));
	}

}

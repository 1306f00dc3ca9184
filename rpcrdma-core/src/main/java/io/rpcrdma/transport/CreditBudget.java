package io.rpcrdma.transport;

import io.rpcrdma.log.RefusalLog;

/**
 * A responder's credits across all its connections: every credit granted is a receive buffer
 * posted and a request that may be in progress, so the total is bounded, and so is each
 * connection's share. A connection always gets at least {@link #FLOOR} credits (or
 * {@code maxPerConnection} if that is smaller), even when the budget is spent: RFC 8166 §3.3.1
 * requires at least one, since a requester with nothing outstanding and a grant of zero could
 * never send again, and a second one keeps a connection whose one call is slow (a long poll, a
 * call waiting on another) able to make another call. The floor is granted beyond the budget,
 * so the budget bounds what connections get above it.
 * <p>
 * A connection is charged only once it asks ({@link #grow} with a current grant of 0, at its
 * first request): until then it holds the {@linkplain #unasked floor}, outside the budget and
 * the fair shares, so idle connections (however many one peer opens, up to its connection cap)
 * take no credits from connections that call.
 * <p>
 * Fair across connections: while at most three quarters of the budget are granted (no
 * pressure), a connection grows as far as it asks (within {@code maxPerConnection}); beyond
 * that it grows only up to its fair share, the budget divided by the connections holding
 * grants, and {@link #trim} takes a connection above its share back down to it. So one busy connection
 * cannot hold the credits that many quiet ones need, and the last quarter stays for
 * connections below their share. A grant held below what was asked is counted
 * ({@link #heldBack()}) and logged, at most once per {@link RefusalLog#DEFAULT_INTERVAL}.
 * Thread-safe.
 */
public final class CreditBudget {

	private static final System.Logger logger = System.getLogger(CreditBudget.class.getName());

	/** The least a connection is granted, budget or not (see the class comment). */
	public static final int FLOOR = 2;

	private final int total;

	private final int maxPerConnection;

	/** {@link #FLOOR}, or {@code maxPerConnection} if smaller. */
	private final int floor;

	/** Granted beyond this, connections grow only up to their fair share. */
	private final long contendedAbove;

	private final RefusalLog heldBack = new RefusalLog(logger, RefusalLog.DEFAULT_INTERVAL);

	/** Written under the lock; read without it by {@link #trim}'s check for pressure. */
	private volatile long granted;

	private int connections;

	/**
	 * @param total the credits all connections may share
	 * @param maxPerConnection the most one connection gets
	 */
	public CreditBudget(int total, int maxPerConnection) {
		if (total < 1 || maxPerConnection < 1) {
			throw new IllegalArgumentException("Credit budget and per-connection share must be positive, got " + total
					+ " and " + maxPerConnection);
		}
		this.total = total;
		this.maxPerConnection = maxPerConnection;
		this.floor = Math.min(FLOOR, maxPerConnection);
		this.contendedAbove = total - total / 4L;
	}

	/**
	 * A budget that does not limit anything beyond the per-connection configuration.
	 * @return an unbounded budget
	 */
	public static CreditBudget unlimited() {
		return new CreditBudget(Integer.MAX_VALUE, 65535);
	}

	/**
	 * The grant of a connection that has not asked yet: the floor (or {@code max} if smaller),
	 * not charged to the budget and not counted among the connections sharing it.
	 * @param max the most the connection gets
	 * @return the grant
	 */
	public int unasked(int max) {
		return Math.min(this.floor, Math.max(1, max));
	}

	/**
	 * Grows a connection's grant towards what it asked for, as far as the budget and the
	 * connection's fair share allow.
	 * @param current the connection's current grant, 0 if it has none yet (it then counts as
	 * a connection holding a grant until {@link #release})
	 * @param wanted what the connection asked for, already capped by its configuration
	 * @return the new grant: at least {@code current} and at least the floor (or
	 * {@code wanted} if that is smaller, but never 0), at most
	 * {@code max(current, floor, min(wanted, maxPerConnection))}
	 */
	public int grow(int current, int wanted) {
		int least;
		int target;
		int next;
		synchronized (this) {
			if (current == 0) {
				this.connections++;
			}
			// The floor, unless the connection asks for fewer (RFC 8166 §3.3.1: its rdma_credit
			// is the most it expects to use, and its configuration may allow only one).
			least = Math.min(this.floor, Math.max(1, wanted));
			target = Math.max(least, Math.min(wanted, this.maxPerConnection));
			if (target <= current) {
				return current;
			}
			long free = Math.max(0, this.total - this.granted);
			long limit = (this.granted + (target - current) <= this.contendedAbove) ? target
					: Math.min(target, Math.max(current, fairShare()));
			next = (int) Math.max(least, Math.max(current, Math.min(limit, current + free)));
			this.granted += next - current;
		}
		if (next < target) {
			int held = next;
			this.heldBack.refused((count) -> "A connection's credit grant was held at " + held + " of the " + target
					+ " it could use: the credit budget of " + this.total + " is nearly spent (" + count
					+ " grants held back so far); raise the credit budget (rpcrdma.server.credit-budget) or lower "
					+ "the credits per connection");
		}
		return next;
	}

	/**
	 * Takes a connection's grant down to its fair share (never below the floor) when the budget
	 * is under pressure (see the class comment); the credits above it go back to the budget.
	 * Without pressure the grant is kept.
	 * @param current the connection's grant
	 * @return the grant it keeps
	 */
	public int trim(int current) {
		// Asked on every request of every connection: without pressure, which is the common
		// case, the server-wide lock is not taken. A check that reads a stale total only
		// delays a trim to the connection's next request.
		if (this.granted <= this.contendedAbove) {
			return current;
		}
		synchronized (this) {
			if (this.granted <= this.contendedAbove) {
				return current;
			}
			int share = Math.max(this.floor, fairShare());
			if (current <= share) {
				return current;
			}
			this.granted -= current - share;
			return share;
		}
	}

	/**
	 * Gives back part of a connection's grant: the grant shrank.
	 * @param current the grant before
	 * @param next the grant after, at least 1 and at most {@code current}
	 */
	public synchronized void shrink(int current, int next) {
		if (next < 1 || next > current) {
			throw new IllegalArgumentException("A grant of " + current + " cannot shrink to " + next);
		}
		this.granted = Math.max(0, this.granted - (current - next));
	}

	/**
	 * Returns a connection's grant when it closes.
	 * @param grant the connection's grant
	 */
	public synchronized void release(int grant) {
		this.granted = Math.max(0, this.granted - grant);
		this.connections = Math.max(0, this.connections - 1);
	}

	private int fairShare() {
		return (int) Math.max(1, this.total / Math.max(1, this.connections));
	}

	/** @return credits granted to connections now */
	public synchronized int granted() {
		return (int) Math.min(Integer.MAX_VALUE, this.granted);
	}

	/** @return connections holding a grant now */
	public synchronized int connections() {
		return this.connections;
	}

	/** @return grants held below what a connection could use, since the budget was made */
	public long heldBack() {
		return this.heldBack.count();
	}

	/** @return the budget */
	public int total() {
		return this.total;
	}

	/** @return the per-connection share */
	public int maxPerConnection() {
		return this.maxPerConnection;
	}

}

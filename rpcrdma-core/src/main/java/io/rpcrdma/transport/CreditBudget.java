package io.rpcrdma.transport;

/**
 * A responder's credits across all its connections: every credit granted is a receive buffer
 * posted and a request that may be in progress, so the total is bounded, and so is each
 * connection's share. A connection always gets at least one credit, even when the budget is
 * spent, because a requester with nothing outstanding and a grant of zero could never send
 * again (RFC 8166 §3.3.1). Thread-safe.
 */
public final class CreditBudget {

	private final int total;

	private final int maxPerConnection;

	private int granted;

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
	}

	/**
	 * A budget that does not limit anything beyond the per-connection configuration.
	 * @return an unbounded budget
	 */
	public static CreditBudget unlimited() {
		return new CreditBudget(Integer.MAX_VALUE, 65535);
	}

	/**
	 * Grows a connection's grant towards what it asked for, as far as the budget allows.
	 * @param current the connection's current grant, 0 if it has none yet
	 * @param wanted what the connection asked for, already capped by its configuration
	 * @return the new grant: at least 1 and at least {@code current}, at most
	 * {@code max(current, min(wanted, maxPerConnection))}
	 */
	public synchronized int grow(int current, int wanted) {
		int target = Math.max(1, Math.min(wanted, this.maxPerConnection));
		if (target <= current) {
			return Math.max(current, 1);
		}
		int free = Math.max(0, this.total - this.granted);
		int next = Math.max(current + Math.min(free, target - current), 1);
		this.granted += next - current;
		return next;
	}

	/**
	 * Returns a connection's grant when it closes.
	 * @param grant the connection's grant
	 */
	public synchronized void release(int grant) {
		this.granted = Math.max(0, this.granted - grant);
	}

	/** @return credits granted to connections now */
	public synchronized int granted() {
		return this.granted;
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

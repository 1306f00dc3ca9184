package io.rpcrdma.server;

/**
 * One connection's part of the executor ({@link ExecutorShare}): how many of its calls are in
 * the executor, and its calls waiting for one of them to end, oldest first, in a ring that
 * grows to the most ever waiting (so a connection's steady traffic allocates nothing).
 * Guarded by itself.
 */
final class ConnectionShare {

	/** What {@link #admit} decided. */
	enum Admission {

		/** The call takes a place in the executor: hand it over now. */
		RUN,
		/** The call waits on its connection; {@link #next()} hands it over later. */
		WAIT,
		/** The connection's share and its waiting room are full: refuse the call. */
		FULL,
		/** The share was given up meanwhile (idle); take the key's share again. */
		LEFT

	}

	/** The connection, or the client key of calls that came over none. */
	final Object key;

	private final ExecutorShare limits;

	/** Whether the share leaves its {@link ConnectionShares} once idle (a key without a connection). */
	private final boolean leavesWhenIdle;

	/** Calls handed to the executor whose tasks have not ended. */
	private int admitted;

	private DispatchExchange[] waiting = new DispatchExchange[4];

	private int head;

	private int count;

	private boolean left;

	ConnectionShare(Object key, ExecutorShare limits, boolean leavesWhenIdle) {
		this.key = key;
		this.limits = limits;
		this.leavesWhenIdle = leavesWhenIdle;
	}

	/**
	 * A call of this connection asks for a place in the executor.
	 * @param exchange the call
	 * @return whether it runs now, waits, is refused, or must ask the key's current share
	 */
	synchronized Admission admit(DispatchExchange exchange) {
		if (this.left) {
			return Admission.LEFT;
		}
		if (this.admitted < this.limits.calls()) {
			this.admitted++;
			exchange.share = this;
			return Admission.RUN;
		}
		if (this.count >= this.limits.waiting()) {
			return Admission.FULL;
		}
		if (this.count == this.waiting.length) {
			grow();
		}
		// Set under the lock: whoever takes the call from the line (next) sees it.
		exchange.share = this;
		this.waiting[(this.head + this.count) % this.waiting.length] = exchange;
		this.count++;
		return Admission.WAIT;
	}

	/**
	 * A task of this connection's ended (or was refused): its place goes to the oldest waiting
	 * call, or is given back.
	 * @param shares where an idle share that leaves when idle is removed
	 * @return the call to hand over in its place, or {@code null} if none waits
	 */
	synchronized DispatchExchange next(ConnectionShares shares) {
		if (this.count == 0) {
			this.admitted--;
			if (this.admitted == 0 && this.leavesWhenIdle) {
				this.left = true;
				shares.remove(this);
			}
			return null;
		}
		DispatchExchange next = this.waiting[this.head];
		this.waiting[this.head] = null;
		this.head = (this.head + 1) % this.waiting.length;
		this.count--;
		return next;
	}

	/** @return calls in the executor now */
	synchronized int admitted() {
		return this.admitted;
	}

	/** @return calls waiting now */
	synchronized int waiting() {
		return this.count;
	}

	private void grow() {
		DispatchExchange[] larger = new DispatchExchange[Math.min(Math.max(4, this.waiting.length * 2),
				Math.max(this.limits.waiting(), 4))];
		for (int i = 0; i < this.count; i++) {
			larger[i] = this.waiting[(this.head + i) % this.waiting.length];
		}
		this.waiting = larger;
		this.head = 0;
	}

	@Override
	public String toString() {
		return "executor share of " + this.key + ": " + admitted() + " in the executor, " + waiting() + " waiting";
	}

}

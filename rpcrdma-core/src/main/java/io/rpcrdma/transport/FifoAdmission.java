package io.rpcrdma.transport;

import java.util.ArrayDeque;

/**
 * Work admitted in arrival order while what the admitted work holds stays within a limit; work
 * that does not fit waits, and starts when earlier work gives back enough. One connection's
 * RDMA Reads within its ORD ({@link ReadThrottle}, a weight of one per Read) and the bulk
 * memory its Read chunks hold within {@link PeerLimits#bulkShare()} (a weight of bytes) are both
 * kept so. Work is always admitted when nothing is held, so a weight above the limit still goes,
 * alone. Never blocks: admitted work starts on the thread that submitted it or that gave back
 * what it needed, which may be a completion handler.
 */
class FifoAdmission {

	/** Work: how much it holds, how to start it, and how to give up on it if the connection fails first. */
	record Waiter(long weight, Runnable admit, Runnable abandon) {
	}

	private final ArrayDeque<Waiter> waiting = new ArrayDeque<>();

	private long limit;

	private long held;

	private long highWater;

	private boolean closed;

	FifoAdmission(long limit) {
		this.limit = limit;
	}

	/**
	 * Starts the work now if it fits and nothing waits before it, else queues it.
	 * @param waiter the work
	 * @return whether it had to wait
	 */
	boolean admit(Waiter waiter) {
		boolean now;
		boolean abandon = false;
		synchronized (this) {
			if (this.closed) {
				abandon = true;
				now = false;
			}
			else if (this.waiting.isEmpty() && fits(waiter.weight())) {
				hold(waiter.weight());
				now = true;
			}
			else {
				this.waiting.addLast(waiter);
				now = false;
			}
		}
		if (abandon) {
			waiter.abandon().run();
		}
		else if (now) {
			waiter.admit().run();
		}
		return !now && !abandon;
	}

	/**
	 * Admitted work gave back what it held: the waiting work that now fits starts.
	 * @param weight what it was admitted with
	 */
	void release(long weight) {
		synchronized (this) {
			this.held -= weight;
		}
		startWaiting();
	}

	/**
	 * Changes the limit; raising it starts waiting work at once.
	 * @param newLimit the new limit
	 */
	void limit(long newLimit) {
		synchronized (this) {
			this.limit = newLimit;
		}
		startWaiting();
	}

	/** The connection failed: waiting work is abandoned, and later work at once. */
	void close() {
		Waiter[] abandoned;
		synchronized (this) {
			this.closed = true;
			abandoned = this.waiting.toArray(new Waiter[0]);
			this.waiting.clear();
		}
		for (Waiter waiter : abandoned) {
			waiter.abandon().run();
		}
	}

	/** @return the limit */
	synchronized long limit() {
		return this.limit;
	}

	/** @return what admitted work holds now */
	synchronized long held() {
		return this.held;
	}

	/** @return the most admitted work ever held at once */
	synchronized long highWater() {
		return this.highWater;
	}

	/** @return the work waiting */
	synchronized int waiting() {
		return this.waiting.size();
	}

	private void startWaiting() {
		while (true) {
			Waiter next;
			synchronized (this) {
				next = this.waiting.peekFirst();
				if (next == null || this.closed || !fits(next.weight())) {
					return;
				}
				this.waiting.pollFirst();
				hold(next.weight());
			}
			next.admit().run();
		}
	}

	private void hold(long weight) {
		this.held += weight;
		this.highWater = Math.max(this.highWater, this.held);
	}

	private boolean fits(long weight) {
		return this.held == 0 || this.held + weight <= this.limit;
	}

}

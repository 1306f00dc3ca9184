package io.rpcrdma.transport;

/**
 * Keeps the RDMA Reads one connection has outstanding within its ORD (RFC 5666 §3.3 leaves
 * IRD/ORD limits to "other layers"; RFC 5666 §6.2 {@code maxrdmaread}: exceeding the peer's
 * IRD risks connection loss). A Read beyond the limit waits in FIFO order and starts as an
 * earlier one completes. Never blocks: a completion handler may submit and release.
 */
final class ReadThrottle {

	/** One RDMA Read: how to post it, and how to give up on it if the connection fails first. */
	record Read(Runnable start, Runnable abandon) {
	}

	private final FifoAdmission reads;

	private final TransportCounters counters;

	ReadThrottle(int limit, TransportCounters counters) {
		this.reads = new FifoAdmission(limit);
		this.counters = counters;
	}

	/**
	 * Starts the Read now if the limit allows, else queues it behind the ones waiting.
	 * @param read the Read
	 */
	void submit(Read read) {
		Runnable start = () -> {
			this.counters.recordReadsInFlight((int) this.reads.highWater());
			read.start().run();
		};
		if (this.reads.admit(new FifoAdmission.Waiter(1, start, read.abandon()))) {
			this.counters.readsQueued.increment();
		}
	}

	/** A Read completed, well or not: the next waiting one, if any, starts. */
	void release() {
		this.reads.release(1);
	}

	/**
	 * Changes the limit, as when the peer's IRD became known in band; raising it starts
	 * waiting Reads at once.
	 * @param newLimit the most Reads at once, at least 1
	 */
	void limit(int newLimit) {
		this.reads.limit(newLimit);
	}

	/** @return the current limit */
	int limit() {
		return (int) this.reads.limit();
	}

	/** @return Reads started and not yet completed */
	int inFlight() {
		return (int) this.reads.held();
	}

	/** @return Reads waiting for a slot */
	int waiting() {
		return this.reads.waiting();
	}

	/** The connection failed: every waiting Read is abandoned, and later ones at once. */
	void close() {
		this.reads.close();
	}

}

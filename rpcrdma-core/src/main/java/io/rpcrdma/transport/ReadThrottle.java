package io.rpcrdma.transport;

import java.util.ArrayDeque;

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

	private final ArrayDeque<Read> waiting = new ArrayDeque<>();

	private final TransportCounters counters;

	private int limit;

	private int inFlight;

	private boolean closed;

	ReadThrottle(int limit, TransportCounters counters) {
		this.limit = limit;
		this.counters = counters;
	}

	/**
	 * Starts the Read now if the limit allows, else queues it behind the ones waiting.
	 * @param read the Read
	 */
	void submit(Read read) {
		boolean start;
		boolean abandon = false;
		synchronized (this) {
			if (this.closed) {
				abandon = true;
				start = false;
			}
			else if (this.waiting.isEmpty() && this.inFlight < this.limit) {
				this.inFlight++;
				this.counters.recordReadsInFlight(this.inFlight);
				start = true;
			}
			else {
				this.waiting.addLast(read);
				this.counters.readsQueued.increment();
				start = false;
			}
		}
		if (abandon) {
			read.abandon().run();
		}
		else if (start) {
			read.start().run();
		}
	}

	/** A Read completed, well or not: the next waiting one, if any, starts. */
	void release() {
		Read next;
		synchronized (this) {
			this.inFlight--;
			next = pollStartable();
		}
		if (next != null) {
			next.start().run();
		}
	}

	/**
	 * Changes the limit, as when the peer's IRD became known in band; raising it starts
	 * waiting Reads at once.
	 * @param newLimit the most Reads at once, at least 1
	 */
	void limit(int newLimit) {
		while (true) {
			Read next;
			synchronized (this) {
				this.limit = newLimit;
				next = pollStartable();
			}
			if (next == null) {
				return;
			}
			next.start().run();
		}
	}

	/** @return the current limit */
	synchronized int limit() {
		return this.limit;
	}

	/** @return Reads started and not yet completed */
	synchronized int inFlight() {
		return this.inFlight;
	}

	/** @return Reads waiting for a slot */
	synchronized int waiting() {
		return this.waiting.size();
	}

	/** The connection failed: every waiting Read is abandoned, and later ones at once. */
	void close() {
		Read[] abandoned;
		synchronized (this) {
			this.closed = true;
			abandoned = this.waiting.toArray(new Read[0]);
			this.waiting.clear();
		}
		for (Read read : abandoned) {
			read.abandon().run();
		}
	}

	private Read pollStartable() {
		if (this.closed || this.inFlight >= this.limit || this.waiting.isEmpty()) {
			return null;
		}
		this.inFlight++;
		this.counters.recordReadsInFlight(this.inFlight);
		return this.waiting.pollFirst();
	}

}

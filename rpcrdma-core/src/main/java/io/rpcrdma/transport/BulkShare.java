package io.rpcrdma.transport;

import java.util.ArrayDeque;

/**
 * The registered bulk memory one connection holds for the Read chunks this side pulls, kept
 * within {@link PeerLimits#bulkShare()}: a peer that sends many calls with large Read chunks,
 * and answers none of the RDMA Reads, holds at most its share of the memory pool, and the
 * other connections keep the rest (RFC 8166 §8: a peer must not exhaust what all share). A call
 * that does not fit waits, in arrival order, until this connection's earlier calls give
 * memory back; the credit it took bounds how many wait (RFC 8166 §3.3.1). A call is always
 * admitted when the connection holds nothing, so a chunk larger than the share goes alone.
 * Never blocks: admission runs on the thread that gave the memory back.
 */
final class BulkShare {

	/** A call waiting for memory: what to run once admitted, or if the connection fails first. */
	record Waiter(long bytes, Runnable admit, Runnable abandon) {
	}

	private final long limit;

	private final ArrayDeque<Waiter> waiting = new ArrayDeque<>();

	private long held;

	private boolean closed;

	BulkShare(long limit) {
		this.limit = limit;
	}

	/**
	 * Admits a call's bytes now and runs {@code admit}, or queues it behind those waiting.
	 * @param waiter the call
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
			else if (this.waiting.isEmpty() && fits(waiter.bytes())) {
				this.held += waiter.bytes();
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
	 * An admitted call gave its memory back: admits the waiting calls that now fit.
	 * @param bytes what it was admitted with
	 */
	void release(long bytes) {
		while (true) {
			Waiter next;
			synchronized (this) {
				this.held -= bytes;
				bytes = 0;
				next = this.waiting.peekFirst();
				if (next == null || this.closed || !fits(next.bytes())) {
					return;
				}
				this.waiting.pollFirst();
				this.held += next.bytes();
			}
			next.admit().run();
		}
	}

	/** The connection failed: waiting calls are abandoned, later ones at once. */
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

	/** @return the bytes admitted calls hold now */
	synchronized long held() {
		return this.held;
	}

	/** @return the calls waiting for memory */
	synchronized int waiting() {
		return this.waiting.size();
	}

	private boolean fits(long bytes) {
		return this.held == 0 || this.held + bytes <= this.limit;
	}

}

package io.rpcrdma.transport;

import java.util.ArrayDeque;

import io.rpcrdma.verbs.SendWorkRequest;

/**
 * The room on one connection's send queue: every work request posted (Send, RDMA Read, RDMA
 * Write, all signaled) takes a slot until its completion, success, error or flush, gives it
 * back. A work request that finds no room, or finds others already waiting, waits in posting
 * order and is posted by the thread that gives room back, so that a full queue is a short
 * wait instead of a failed call, as Linux's svcrdma waits on {@code sc_sq_avail}. Never blocks.
 * <p>
 * Order is kept: work posted after work that waits waits too, and only one thread (the
 * drainer) posts waiting work at a time, so a reply's RDMA Writes still precede its Send on
 * the queue (RFC 8166 §3.4.6: the data is placed before the reply that reports it arrives).
 * <p>
 * What can wait is bounded by what the connection already bounds: each waiting work request
 * belongs to a message in flight, and those are within the credits (RFC 8166 §3.3.1: calls and
 * their replies, and backward calls within the backward credits, RFC 8167 §4.1), their RDMA
 * Writes within the segments of the Write list and Reply chunk the header offered (RFC 8166
 * §3.4.6, §4.1.2), which the header limits bound ({@code maxChunks} chunks of
 * {@code maxSegmentsPerChunk} segments), and RDMA Reads are held back by the
 * {@link ReadThrottle} before they come here (the ORD). So what waits stays within the
 * messages the credits allow (RDMA_DONE and backward replies among them) and one Write for
 * each segment their replies may fill.
 * <p>
 * Taking room on the fast path allocates nothing; the waiting queue is made the first time
 * anything waits.
 */
final class SendQueueBudget {

	private final int depth;

	/** Slots taken: posted work not yet completed, and work being posted. Guarded by this. */
	private int held;

	/** Work waiting for room, in posting order; {@code null} until something waits. Guarded by this. */
	private ArrayDeque<SendWorkRequest> waiting;

	/** Whether a thread is posting waiting work. Guarded by this. */
	private boolean draining;

	/** Whether the connection failed: nothing waits any more. Guarded by this. */
	private boolean closed;

	/** Work requests that had to wait, in all. Guarded by this. */
	private long queued;

	/** The most work requests ever waiting at once. Guarded by this. */
	private int waitingHighWater;

	/**
	 * @param depth the send queue depth the queue pair was created with
	 */
	SendQueueBudget(int depth) {
		if (depth < 1) {
			throw new IllegalArgumentException("A send queue depth must be positive, got " + depth);
		}
		this.depth = depth;
	}

	/**
	 * The send queue depth of a connection: what it can have outstanding at once, as Linux's
	 * svcrdma sizes {@code sc_sq_depth} from its request depth and its R/W contexts instead of
	 * a fixed figure. Work beyond it waits here rather than failing, so the depth is what keeps
	 * the common case from waiting, not a limit a peer can reach:
	 * <ul>
	 * <li>Sends: one per message in flight either way, which {@link TransportConfig#receiveCount()}
	 * already counts (the credits, RFC 8166 §3.3.1, the backward-direction credits, RFC 8167 §4.1,
	 * and the slack for RDMA_DONE and RDMA_ERROR);</li>
	 * <li>RDMA Reads: the ORD, {@link TransportConfig#maxOutstandingReads()}, which the
	 * {@link ReadThrottle} never exceeds (RFC 5666 §6.2);</li>
	 * <li>RDMA Writes: one per credit, a reply in flight whose result fills a one-segment Write
	 * chunk or Reply chunk (RFC 8166 §3.4.6, §3.5.4); replies with more segments wait their
	 * turn.</li>
	 * </ul>
	 * With the defaults (32 credits, 40 receives, an ORD of 16) that is 88, not the 512 every
	 * connection had before; disni reserves the depth on a shared completion queue and siw
	 * allocates arrays of it per connection.
	 * @param config the connection's settings
	 * @return the send queue depth
	 */
	static int depth(TransportConfig config) {
		int writes = Math.max(config.creditsRequested(), config.creditsGranted());
		return config.receiveCount() + config.maxOutstandingReads() + writes;
	}

	/**
	 * Takes a slot for a work request about to be posted, or queues it.
	 * @param request the work request
	 * @return {@code true} if the caller posts it now (a slot is taken), {@code false} if it
	 * waits and will be handed to a drainer by {@link #next()}
	 */
	synchronized boolean take(SendWorkRequest request) {
		if (this.closed || (!this.draining && this.held < this.depth
				&& (this.waiting == null || this.waiting.isEmpty()))) {
			// Once closed the queue pair refuses or flushes the post itself.
			this.held++;
			return true;
		}
		if (this.waiting == null) {
			this.waiting = new ArrayDeque<>();
		}
		this.waiting.addLast(request);
		this.queued++;
		this.waitingHighWater = Math.max(this.waitingHighWater, this.waiting.size());
		return false;
	}

	/**
	 * Gives a slot back: a work request completed, or its post was refused.
	 * @return whether the caller is now the drainer and must post what {@link #next()} hands
	 * it until it returns {@code null}
	 */
	synchronized boolean give() {
		if (this.held > 0) {
			this.held--;
		}
		if (!this.draining && !this.closed && this.held < this.depth && this.waiting != null
				&& !this.waiting.isEmpty()) {
			this.draining = true;
			return true;
		}
		return false;
	}

	/**
	 * The drainer's next work request, its slot taken.
	 * @return the oldest waiting work request if there is room, or {@code null}, which ends the
	 * drainer's turn
	 */
	synchronized SendWorkRequest next() {
		if (this.closed || this.held >= this.depth || this.waiting == null || this.waiting.isEmpty()) {
			this.draining = false;
			return null;
		}
		this.held++;
		return this.waiting.pollFirst();
	}

	/**
	 * The drainer's post was refused: its slot is free again, and the drainer goes on.
	 */
	synchronized void refused() {
		if (this.held > 0) {
			this.held--;
		}
	}

	/**
	 * The connection failed: nothing waits any more.
	 * @return the work that was waiting, never posted, in posting order, for the caller to
	 * flush
	 */
	synchronized SendWorkRequest[] close() {
		this.closed = true;
		if (this.waiting == null || this.waiting.isEmpty()) {
			return new SendWorkRequest[0];
		}
		SendWorkRequest[] flushed = this.waiting.toArray(new SendWorkRequest[0]);
		this.waiting.clear();
		return flushed;
	}

	/** @return the send queue depth */
	int depth() {
		return this.depth;
	}

	/** @return slots taken now */
	synchronized int held() {
		return this.held;
	}

	/** @return work requests waiting now */
	synchronized int waiting() {
		return (this.waiting != null) ? this.waiting.size() : 0;
	}

	/** @return work requests that had to wait, in all */
	synchronized long queued() {
		return this.queued;
	}

	/** @return the most work requests ever waiting at once */
	synchronized int waitingHighWater() {
		return this.waitingHighWater;
	}

}

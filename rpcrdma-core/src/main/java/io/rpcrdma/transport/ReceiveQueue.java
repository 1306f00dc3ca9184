package io.rpcrdma.transport;

import java.util.concurrent.atomic.AtomicInteger;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.transport.trace.ConnectionTrace;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.ReceiveWorkRequest;
import io.rpcrdma.verbs.ScatterGatherEntry;

/**
 * The receives one connection keeps posted (RFC 5666 §3.3, RFC 8166 §3.3.1: a credit is a
 * posted receive): one RECEIVE buffer each, leased once, and a work request per buffer made
 * once and posted again whenever its message was copied out, so reposting allocates nothing.
 * A receive's wr_id carries {@link #TAG} and its index.
 */
final class ReceiveQueue {

	/** Set in the wr_id of every receive, never in a send-queue work request's. */
	static final long TAG = 1L << 62;

	private final QueuePair qp;

	private final RegisteredBuffer[] buffers;

	private final ReceiveWorkRequest[] requests;

	private final AtomicInteger posted = new AtomicInteger();

	private final ConnectionTrace trace;

	/**
	 * Leases the receive buffers; posts nothing yet.
	 * @param qp the queue pair the receives go to
	 * @param pool where the buffers come from
	 * @param count how many receives
	 * @param size each buffer's size: the largest message this side receives inline
	 * @param trace the connection's trace events
	 * @throws TransportResourceException if the pool has too few receive buffers (those leased
	 * are given back)
	 */
	ReceiveQueue(QueuePair qp, RegisteredMemoryPool pool, int count, int size, ConnectionTrace trace) {
		this.qp = qp;
		this.trace = trace;
		this.buffers = new RegisteredBuffer[count];
		this.requests = new ReceiveWorkRequest[count];
		for (int i = 0; i < count; i++) {
			RegisteredBuffer buffer = pool.tryLease(BufferRole.RECEIVE, size);
			if (buffer == null) {
				releaseAll();
				throw new TransportResourceException("The memory pool has no receive buffer left for receive " + i
						+ " of " + count + "; raise its limit or lower receiveCount", null);
			}
			this.buffers[i] = buffer;
			this.requests[i] = ReceiveWorkRequest.of(TAG | i, ScatterGatherEntry.of(buffer.region(), buffer.offset(), size));
		}
	}

	/** @return whether a completion's wr_id is a receive's */
	static boolean isReceive(long wrId) {
		return (wrId & TAG) != 0;
	}

	/** @return the index of the receive a receive completion's wr_id names */
	static int index(long wrId) {
		return (int) (wrId & ~TAG);
	}

	/** Posts every receive, as the connection starts. */
	void postAll() {
		for (int i = 0; i < this.requests.length; i++) {
			this.posted.incrementAndGet();
			this.qp.postRecv(this.requests[i]);
			this.trace.posted(this.requests[i]);
		}
	}

	/**
	 * A receive completed: it is no longer posted.
	 * @param index its index
	 * @return its buffer, holding the message from offset 0
	 */
	RegisteredBuffer completed(int index) {
		this.posted.decrementAndGet();
		return this.buffers[index];
	}

	/**
	 * Posts a completed receive again.
	 * @param index its index
	 * @throws RuntimeException what the queue pair threw; the receive then stays unposted
	 */
	void repost(int index) {
		this.posted.incrementAndGet();
		try {
			this.qp.postRecv(this.requests[index]);
			this.trace.posted(this.requests[index]);
		}
		catch (RuntimeException ex) {
			this.posted.decrementAndGet();
			throw ex;
		}
	}

	/**
	 * Gives a completed receive's buffer back for good: the connection failed, or the receive did.
	 * @param index its index
	 */
	void drop(int index) {
		RegisteredBuffer buffer = this.buffers[index];
		this.buffers[index] = null;
		if (buffer != null) {
			buffer.release();
		}
	}

	/** Gives every buffer back: the connection could not start. */
	void releaseAll() {
		for (int i = 0; i < this.buffers.length; i++) {
			drop(i);
		}
	}

	/** @return the receives posted now */
	int posted() {
		return this.posted.get();
	}

}

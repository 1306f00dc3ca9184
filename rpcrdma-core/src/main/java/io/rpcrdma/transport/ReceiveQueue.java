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
 * posted receive), as many as its owner's {@link #fill target} and never more than its
 * capacity. A receive's buffer is leased from the memory pool's shared receive class when the
 * receive is first needed and given back to that class when a consumed receive is not needed
 * any more ({@link #retire}), so the registered memory a connection holds follows its grant
 * while the pool's slabs stay registered (the pool registers only when its receive class grows
 * past its high-water mark, never per lease). A posted receive's work request is made once
 * and posted again whenever its message was copied out, so reposting allocates nothing. A
 * receive's wr_id carries {@link #TAG} and its slot. Used on the connection's completion
 * thread (and by its constructor before the first completion), and by a thread making the
 * connection's first backward-direction call ({@link #tryFill}): posting and giving back are
 * synchronized, uncontended but for that one moment.
 */
final class ReceiveQueue {

	/** Set in the wr_id of every receive, never in a send-queue work request's. */
	static final long TAG = 1L << 62;

	private final QueuePair qp;

	private final RegisteredMemoryPool pool;

	private final int size;

	private final ConnectionTrace trace;

	/** Each slot's buffer, {@code null} while the slot holds none. */
	private final RegisteredBuffer[] buffers;

	private final ReceiveWorkRequest[] requests;

	/** Slots without a buffer, a stack of their indices. */
	private final int[] vacant;

	private int vacantCount;

	private final AtomicInteger posted = new AtomicInteger();

	/**
	 * Posts nothing and leases nothing yet.
	 * @param qp the queue pair the receives go to
	 * @param pool where the buffers come from
	 * @param capacity the most receives ever posted at once: the queue pair's receive depth
	 * @param size each buffer's size: the largest message this side receives inline
	 * @param trace the connection's trace events
	 */
	ReceiveQueue(QueuePair qp, RegisteredMemoryPool pool, int capacity, int size, ConnectionTrace trace) {
		this.trace = trace;
		this.qp = qp;
		this.pool = pool;
		this.size = size;
		this.buffers = new RegisteredBuffer[capacity];
		this.requests = new ReceiveWorkRequest[capacity];
		this.vacant = new int[capacity];
		for (int i = capacity - 1; i >= 0; i--) {
			this.vacant[this.vacantCount++] = i;
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

	/**
	 * Posts receives until {@code target} are posted (at most the capacity), leasing a buffer
	 * for each from the pool without waiting.
	 * @param target how many receives should be posted
	 * @return the receives posted now: fewer than {@code target} when the pool's receive budget
	 * is spent
	 * @throws RuntimeException what the queue pair threw; the receive it refused is given back
	 */
	synchronized int fill(int target) {
		topUp(target);
		return this.posted.get();
	}

	/**
	 * Posts receives until {@code target} are posted, from any thread: the backward direction
	 * posts the receives for its replies before its first call (RFC 8167 §4.3).
	 * @param target how many receives should be posted
	 * @return whether they are: {@code false} if the pool's receive budget is spent
	 * @throws RuntimeException what the queue pair threw; the receive it refused is given back
	 */
	synchronized boolean tryFill(int target) {
		return topUp(target);
	}

	private boolean topUp(int target) {
		int wanted = Math.min(target, this.buffers.length);
		while (this.posted.get() < wanted && this.vacantCount > 0) {
			RegisteredBuffer buffer = this.pool.tryLease(BufferRole.RECEIVE, this.size);
			if (buffer == null) {
				return false;
			}
			int index = this.vacant[--this.vacantCount];
			this.buffers[index] = buffer;
			this.requests[index] = ReceiveWorkRequest.of(TAG | index,
					ScatterGatherEntry.of(buffer.region(), buffer.offset(), this.size));
			try {
				repost(index);
			}
			catch (RuntimeException ex) {
				retire(index);
				throw ex;
			}
		}
		return true;
	}

	/**
	 * Posts the first receives of a connection.
	 * @param count how many
	 * @throws TransportResourceException if the pool has too few receive buffers (those leased
	 * are given back)
	 */
	void postFirst(int count) {
		if (fill(count) < count) {
			int had = this.posted.get();
			releaseAll();
			throw new TransportResourceException("The memory pool has no receive buffer left for receive " + had
					+ " of " + count + "; raise its receive budget or lower the credits", null);
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
	synchronized void repost(int index) {
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
	 * Gives a completed receive's buffer back to the pool: the connection needs fewer receives
	 * now, it failed, or the receive did. Its slot may take a buffer again later.
	 * @param index its index
	 */
	synchronized void retire(int index) {
		RegisteredBuffer buffer = this.buffers[index];
		if (buffer != null) {
			this.buffers[index] = null;
			this.requests[index] = null;
			this.vacant[this.vacantCount++] = index;
			buffer.release();
		}
	}

	/** Gives every buffer back: the connection could not start. */
	synchronized void releaseAll() {
		for (int i = 0; i < this.buffers.length; i++) {
			retire(i);
		}
		this.posted.set(0);
	}

	/** @return the receives posted now */
	int posted() {
		return this.posted.get();
	}

	/** @return the receives the queue pair was made for */
	int capacity() {
		return this.buffers.length;
	}

}

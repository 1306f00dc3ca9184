package io.rpcrdma.server;

import java.nio.ByteBuffer;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.memory.RegisteredMemoryPool;

/**
 * The reply buffer of one call whose reply may be large (a Write chunk or a large Reply chunk
 * was offered): leased from the registered pool rather than allocated, because a fresh heap
 * buffer of tens of MiB is zeroed by the JVM on every call even when the result is a few
 * bytes. Falls back to the heap when the pool has no buffer free. The transport copies the
 * reply out before {@link io.rpcrdma.transport.ReplySender#reply} returns, so the lease goes
 * back to the pool as soon as the reply is handed over ({@link #release}).
 */
final class LeasedReplyBuffer implements ReplyBufferSupplier {

	/** Up to this size a reply buffer comes from the heap: small enough that zeroing is cheap. */
	static final int HEAP_LIMIT = 64 * 1024;

	private final RegisteredMemoryPool pool;

	private final int capacity;

	private RegisteredBuffer lease;

	LeasedReplyBuffer(RegisteredMemoryPool pool, int capacity) {
		this.pool = pool;
		this.capacity = capacity;
	}

	/**
	 * @param pool the registered pool
	 * @param capacity the reply buffer's size
	 * @return a supplier of heap buffers for small replies, leasing from the pool for large ones
	 */
	static ReplyBufferSupplier of(RegisteredMemoryPool pool, int capacity) {
		return (capacity <= HEAP_LIMIT) ? (xid) -> ByteBuffer.allocate(capacity) : new LeasedReplyBuffer(pool, capacity);
	}

	@Override
	public synchronized ByteBuffer acquire(int xid) {
		RegisteredBuffer leased = (this.capacity <= this.pool.largestBufferSize(BufferRole.LOCAL_BULK))
				? this.pool.tryLease(BufferRole.LOCAL_BULK, this.capacity) : null;
		if (leased == null) {
			return ByteBuffer.allocate(this.capacity);
		}
		this.lease = leased;
		return leased.buffer().slice(0, this.capacity);
	}

	@Override
	public synchronized void release(ByteBuffer buffer) {
		if (this.lease != null) {
			this.lease.release();
			this.lease = null;
		}
	}

}

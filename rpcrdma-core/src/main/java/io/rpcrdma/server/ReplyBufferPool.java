package io.rpcrdma.server;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Heap buffers that replies are encoded into, reused from call to call.
 * <p>
 * A reply buffer must hold everything the requester offered room for, each Write chunk
 * included ({@link RpcServer#replyCapacity}), so a procedure whose result is {@code @Bulk} up
 * to 16 MiB gets a 16 MiB buffer even when its result is small. Allocating that per call
 * meant zeroing 16 MiB and a humongous allocation for the collector on every call: the
 * server spent milliseconds per call before writing a byte. The transport copies a reply out
 * before {@code ReplySender.reply} returns (inline into a send buffer, Write chunk data into a
 * local bulk buffer), so the buffer can be reused as soon as that call returns.
 * <p>
 * Buffers are kept per power-of-two class of their capacity; what is kept is bounded, per
 * class and in all, so a burst of large replies does not pin memory for ever. Thread-safe.
 */
final class ReplyBufferPool {

	/** Most bytes kept per class: many small buffers or a couple of large ones. */
	static final long MAX_BYTES_PER_CLASS = 4L << 20;

	/** Buffers always allowed per class, however large: the 16 MiB case keeps two. */
	static final int MIN_BUFFERS_PER_CLASS = 2;

	private final long maxRetainedBytes;

	private final AtomicLong retained = new AtomicLong();

	private final ArrayDeque<ByteBuffer>[] free;

	/**
	 * @param maxRetainedBytes the most bytes all free buffers may hold together
	 */
	@SuppressWarnings("unchecked")
	ReplyBufferPool(long maxRetainedBytes) {
		this.maxRetainedBytes = maxRetainedBytes;
		this.free = new ArrayDeque[Integer.SIZE];
		for (int i = 0; i < this.free.length; i++) {
			this.free[i] = new ArrayDeque<>();
		}
	}

	/**
	 * @param capacity the bytes the reply may need
	 * @return a buffer of at least that capacity, position 0 and limit {@code capacity}; its
	 * content is undefined (the encoder overwrites what it sends)
	 */
	ByteBuffer acquire(int capacity) {
		ArrayDeque<ByteBuffer> stack = this.free[classOf(capacity)];
		ByteBuffer buffer;
		synchronized (stack) {
			buffer = stack.pollFirst();
		}
		if (buffer != null) {
			this.retained.addAndGet(-buffer.capacity());
			if (buffer.capacity() >= capacity) {
				return buffer.clear().limit(capacity);
			}
			// Same class but smaller than asked: let it go, the new one replaces it.
		}
		return ByteBuffer.allocate(capacity);
	}

	/**
	 * Takes a buffer back once nothing refers to it any more; keeps it if the bounds allow.
	 * @param buffer a buffer from {@link #acquire}
	 */
	void release(ByteBuffer buffer) {
		int capacity = buffer.capacity();
		int index = classOf(capacity);
		long perClass = Math.max(MIN_BUFFERS_PER_CLASS, MAX_BYTES_PER_CLASS >> Math.min(index, 62));
		if (this.retained.addAndGet(capacity) > this.maxRetainedBytes) {
			this.retained.addAndGet(-capacity);
			return;
		}
		ArrayDeque<ByteBuffer> stack = this.free[index];
		synchronized (stack) {
			if (stack.size() < perClass) {
				stack.addFirst(buffer);
				return;
			}
		}
		this.retained.addAndGet(-capacity);
	}

	/** @return bytes held by free buffers */
	long retainedBytes() {
		return this.retained.get();
	}

	/** The class of a capacity: the exponent of the power of two at or above it. */
	static int classOf(int capacity) {
		return (capacity <= 1) ? 0 : Integer.SIZE - Integer.numberOfLeadingZeros(capacity - 1);
	}

}

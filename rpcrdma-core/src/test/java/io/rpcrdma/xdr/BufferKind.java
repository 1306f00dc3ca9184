package io.rpcrdma.xdr;

import java.nio.ByteBuffer;

/**
 * The kinds of buffer the XDR codec must work over alike: heap, heap at a non-zero array
 * offset (a slice of a larger array, which catches code that forgets
 * {@code arrayOffset()}), direct (the registered memory of the RDMA path), and read-only
 * (for decoding only).
 */
public enum BufferKind {

	HEAP {
		@Override
		public ByteBuffer allocate(int capacity) {
			return ByteBuffer.allocate(capacity);
		}
	},

	HEAP_OFFSET {
		@Override
		public ByteBuffer allocate(int capacity) {
			// Guard bytes on both sides, filled so that reads outside the slice would show.
			byte[] array = new byte[capacity + 2 * GUARD];
			java.util.Arrays.fill(array, (byte) 0xEE);
			ByteBuffer slice = ByteBuffer.wrap(array, GUARD, capacity).slice();
			for (int i = 0; i < capacity; i++) {
				slice.put(i, (byte) 0);
			}
			return slice;
		}
	},

	DIRECT {
		@Override
		public ByteBuffer allocate(int capacity) {
			return ByteBuffer.allocateDirect(capacity);
		}
	},

	READ_ONLY_DIRECT {
		@Override
		public ByteBuffer allocate(int capacity) {
			return ByteBuffer.allocateDirect(capacity);
		}

		@Override
		public ByteBuffer wrap(byte[] bytes) {
			return DIRECT.wrap(bytes).asReadOnlyBuffer();
		}
	};

	private static final int GUARD = 7;

	/**
	 * @param capacity the capacity
	 * @return a zeroed, writable buffer of this kind, position 0, limit {@code capacity}
	 */
	public abstract ByteBuffer allocate(int capacity);

	/**
	 * @param bytes the content
	 * @return a buffer of this kind holding exactly {@code bytes} between position and limit
	 */
	public ByteBuffer wrap(byte[] bytes) {
		ByteBuffer buffer = allocate(bytes.length);
		buffer.put(bytes).flip();
		return buffer;
	}

	/**
	 * @return whether an encoder can write into buffers of this kind
	 */
	public boolean writable() {
		return this != READ_ONLY_DIRECT;
	}

}

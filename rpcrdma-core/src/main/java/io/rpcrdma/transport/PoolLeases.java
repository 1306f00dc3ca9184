package io.rpcrdma.transport;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.memory.RegisteredMemoryPool;

/**
 * Leases from a connection's memory pool that never wait, for the completion thread and
 * posters alike (completion handlers must not block), with the exception a caller can act on.
 */
final class PoolLeases {

	private PoolLeases() {
	}

	/**
	 * Leases a buffer of a pool without blocking.
	 * @param pool the pool
	 * @param role what the buffer is for
	 * @param length the bytes it must hold
	 * @return the buffer
	 * @throws MessageTooLargeException if no buffer of the role is that large
	 * @throws TransportResourceException if none is free
	 */
	static RegisteredBuffer lease(RegisteredMemoryPool pool, BufferRole role, int length) {
		if (length > pool.largestBufferSize(role)) {
			throw new MessageTooLargeException(length + " bytes exceed the largest " + role.label()
					+ " buffer of " + pool.largestBufferSize(role) + " bytes");
		}
		RegisteredBuffer buffer = pool.tryLease(role, Math.max(1, length));
		if (buffer == null) {
			throw new TransportResourceException(
					"The memory pool has no free " + role.label() + " buffer of " + length + " bytes", null);
		}
		return buffer;
	}

}

package io.rpcrdma.interop;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import io.rpcrdma.memory.RegisteredMemoryPool;

/**
 * Checks that a test gave every registered buffer back. Closing a connection flushes its posted
 * receives, and their completions return the buffers a moment later, so the check waits for
 * that, up to a deadline.
 */
public final class PoolLeaks {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private PoolLeaks() {
	}

	/**
	 * @param pool the pool whose leases must all come back
	 * @throws AssertionError naming the leases still out at the deadline
	 */
	public static void assertNone(RegisteredMemoryPool pool) {
		long end = System.nanoTime() + DEADLINE.toNanos();
		while (pool.stats().leasedBytes() != 0) {
			if (System.nanoTime() > end) {
				throw new AssertionError("Registered buffers still leased " + DEADLINE.toSeconds()
						+ " s after the connections closed: " + pool.leaks());
			}
			LockSupport.parkNanos(1_000_000);
		}
	}

}

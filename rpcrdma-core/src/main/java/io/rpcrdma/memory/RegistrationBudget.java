package io.rpcrdma.memory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One budget of registered bytes that size classes reserve from before they register memory.
 * A pool has two: receive buffers, whose count follows the connection count, and everything
 * else, whose use follows the calls; kept apart so that a flood of connections cannot take the
 * memory of bulk calls, nor bulk calls the receives of new connections.
 */
final class RegistrationBudget {

	private final String setting;

	private final long limit;

	/** Bytes registered or reserved for a registration in progress; never above the limit. */
	private final AtomicLong reserved = new AtomicLong();

	/**
	 * @param setting the {@link MemoryPoolConfig} component that sets the limit, for messages
	 * @param limit the most bytes
	 */
	RegistrationBudget(String setting, long limit) {
		this.setting = setting;
		this.limit = limit;
	}

	/** @return the setting that sets the limit */
	String setting() {
		return this.setting;
	}

	/** @return the most bytes */
	long limit() {
		return this.limit;
	}

	/** @return bytes registered or being registered */
	long reserved() {
		return this.reserved.get();
	}

	/**
	 * Reserves room for up to {@code wanted} buffers of {@code bufferSize} bytes.
	 * @return how many buffers were reserved, possibly 0
	 */
	int reserve(int bufferSize, int wanted) {
		while (true) {
			long current = this.reserved.get();
			int count = (int) Math.min(wanted, (this.limit - current) / bufferSize);
			if (count <= 0) {
				return 0;
			}
			if (this.reserved.compareAndSet(current, current + (long) count * bufferSize)) {
				return count;
			}
		}
	}

	boolean hasRoomFor(int bufferSize) {
		return this.limit - this.reserved.get() >= bufferSize;
	}

	void unreserve(long bytes) {
		this.reserved.addAndGet(-bytes);
	}

}

package io.rpcrdma.memory;

import java.time.Instant;
import java.util.List;

/**
 * A buffer that is leased and not yet released, as reported by
 * {@link RegisteredMemoryPool#leaks()} and in a {@link MemoryPoolLeakException}.
 *
 * @param sizeClass the name of the buffer's size class, for example {@code receive-1KiB}
 * @param address the address of the buffer's first byte
 * @param length the buffer's length in bytes
 * @param thread the name of the leasing thread, or {@code null} without leak tracking
 * @param leasedAt when the buffer was leased, or {@code null} without leak tracking
 * @param leaseSite the leasing caller's stack, innermost first; empty without leak tracking
 */
public record OutstandingLease(String sizeClass, long address, int length, String thread, Instant leasedAt,
		List<StackTraceElement> leaseSite) {

	/**
	 * Takes an immutable copy of the stack.
	 */
	public OutstandingLease {
		leaseSite = List.copyOf(leaseSite);
	}

	/**
	 * Whether the lease site was recorded (leak tracking was on).
	 * @return {@code true} if {@link #leaseSite()} is known
	 */
	public boolean hasLeaseSite() {
		return !this.leaseSite.isEmpty();
	}

	/**
	 * A multi-line description: the buffer, then where it was leased.
	 * @return the description
	 */
	public String describe() {
		StringBuilder text = new StringBuilder();
		text.append(ByteSizes.format(this.length)).append(" buffer of class ").append(this.sizeClass)
			.append(" at 0x").append(Long.toHexString(this.address));
		if (!hasLeaseSite()) {
			text.append(", lease site unknown (set MemoryPoolConfig.leakTracking to record it)");
			return text.toString();
		}
		text.append(", leased by thread '").append(this.thread).append("' at ").append(this.leasedAt);
		for (StackTraceElement frame : this.leaseSite) {
			text.append(System.lineSeparator()).append("\tat ").append(frame);
		}
		return text.toString();
	}

	@Override
	public String toString() {
		return describe();
	}

}

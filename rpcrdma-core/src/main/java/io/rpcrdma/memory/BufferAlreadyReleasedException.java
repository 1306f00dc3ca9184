package io.rpcrdma.memory;

/**
 * A {@link RegisteredBuffer} was released a second time. A leased buffer has exactly one
 * owner, who releases it exactly once; a second release is a bug that would otherwise
 * hand the same memory to two lessees. With leak tracking on, the cause is the site of
 * the first release and a suppressed exception the site of the lease.
 */
public class BufferAlreadyReleasedException extends IllegalStateException {

	/**
	 * Creates the exception for a buffer.
	 * @param buffer the buffer released twice
	 */
	BufferAlreadyReleasedException(RegisteredBuffer buffer) {
		super(message(buffer));
		RegisteredBuffer.LeaseSite released = buffer.releaseSite();
		if (released != null) {
			initCause(released.asThrowable());
		}
		RegisteredBuffer.LeaseSite leased = buffer.leaseSite();
		if (leased != null) {
			addSuppressed(leased.asThrowable());
		}
	}

	private static String message(RegisteredBuffer buffer) {
		String text = "RegisteredBuffer " + buffer.describe() + " was already released; release each lease exactly once";
		if (buffer.leaseSite() == null) {
			return text + ". Set MemoryPoolConfig.leakTracking to see where it was leased and first released";
		}
		RegisteredBuffer.LeaseSite released = buffer.releaseSite();
		return text + ". It was leased by thread '" + buffer.leaseSite().thread() + "'"
				+ ((released != null) ? " and first released by thread '" + released.thread() + "'" : "")
				+ " (see cause and suppressed exception for the stacks)";
	}

}

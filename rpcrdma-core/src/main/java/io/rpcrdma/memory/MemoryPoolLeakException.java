package io.rpcrdma.memory;

import java.util.List;

/**
 * A {@link RegisteredMemoryPool} with leak tracking on was closed while buffers were still
 * leased. The pool deregistered all its memory anyway; the message lists each outstanding
 * lease with the stack of the code that leased it, which is where the missing
 * {@link RegisteredBuffer#release()} belongs.
 */
public class MemoryPoolLeakException extends IllegalStateException {

	private final List<OutstandingLease> leaks;

	/**
	 * Creates the exception.
	 * @param leaks the outstanding leases
	 */
	public MemoryPoolLeakException(List<OutstandingLease> leaks) {
		super(message(leaks));
		this.leaks = List.copyOf(leaks);
	}

	/**
	 * The buffers that were leased and never released.
	 * @return the outstanding leases
	 */
	public List<OutstandingLease> leaks() {
		return this.leaks;
	}

	private static String message(List<OutstandingLease> leaks) {
		StringBuilder text = new StringBuilder();
		text.append("The registered memory pool was closed with ").append(leaks.size())
			.append(leaks.size() == 1 ? " buffer" : " buffers")
			.append(" still leased; every lease must end with RegisteredBuffer.release(). Outstanding leases:");
		for (OutstandingLease leak : leaks) {
			text.append(System.lineSeparator()).append("- ").append(leak.describe());
		}
		return text.toString();
	}

}

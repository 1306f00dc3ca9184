package io.rpcrdma.fuzz;

import java.lang.management.ManagementFactory;

/**
 * The allocation half of a fuzz target's contract: decoding bytes a peer sent may allocate in
 * proportion to those bytes, never in proportion to a count or length the bytes announce. A
 * decoder that sizes an array from a hostile count fails here long before the heap runs out,
 * whatever the heap size.
 * <p>
 * The decode runs three times and the smaller of the last two runs' allocations is judged:
 * what the JVM allocates once on the decoding thread (classes loaded on first use, a method
 * handle's lambda form compiled after its 128th call) lands in one run, what the decoder
 * allocates lands in every run. Exceptions of the first run propagate: an unexpected one is
 * the finding.
 */
public final class DecodeBudget {

	/** What any decode may allocate besides its share of the input: records, messages, a few buffers. */
	public static final long BASE_BYTES = 64 * 1024;

	/**
	 * What a decode may allocate per input byte: a collection of small values costs a few
	 * objects per four-byte XDR unit (a boxed value, a map node, a string and its array).
	 */
	public static final long BYTES_PER_INPUT_BYTE = 64;

	private static final com.sun.management.ThreadMXBean THREADS = threads();

	private DecodeBudget() {
	}

	/**
	 * @param inputLength how many bytes the peer sent
	 * @param decode the decode and the target's checks; thrown exceptions are findings
	 * @throws AssertionError when the second run allocated more than the budget
	 */
	public static void check(int inputLength, Runnable decode) {
		check(inputLength, BASE_BYTES, decode);
	}

	/**
	 * @param inputLength how many bytes the peer sent
	 * @param baseBytes what the decode may allocate whatever the input, for a decoder with a
	 * larger fixed cost than {@link #BASE_BYTES}
	 * @param decode the decode and the target's checks; thrown exceptions are findings
	 * @throws AssertionError when the allocation was over the budget
	 */
	public static void check(int inputLength, long baseBytes, Runnable decode) {
		decode.run();
		if (THREADS == null) {
			return;
		}
		long allocated = Math.min(measure(decode), measure(decode));
		long budget = baseBytes + BYTES_PER_INPUT_BYTE * inputLength;
		if (allocated > budget) {
			throw new AssertionError("decoding " + inputLength + " bytes allocated " + allocated
					+ " bytes, more than the budget of " + budget + ": something is sized by a count the peer sent");
		}
	}

	private static long measure(Runnable decode) {
		long before = THREADS.getCurrentThreadAllocatedBytes();
		decode.run();
		return THREADS.getCurrentThreadAllocatedBytes() - before;
	}

	private static com.sun.management.ThreadMXBean threads() {
		if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
				&& bean.isThreadAllocatedMemorySupported() && bean.isThreadAllocatedMemoryEnabled()) {
			return bean;
		}
		return null;
	}

}

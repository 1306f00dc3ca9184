package io.rpcrdma.service;

import java.util.Arrays;

/**
 * Gives a failure that another thread produced (the receive thread that read the reply, the
 * timer that ended the deadline) the frames of the thread that made the call and now throws it,
 * as gRPC's blocking stubs do: a stack trace that shows only the receive loop does not say which
 * call of the application failed. The failure keeps its type, message and cause, so handlers
 * catch it as before; the frames where it was produced stay as a suppressed
 * {@link ProducedElsewhere}. Only a failing call pays for this: nothing is allocated on success.
 */
final class CallerFrames {

	private CallerFrames() {
	}

	/**
	 * On the calling thread, about to throw {@code failure} that another thread produced.
	 * @param failure what the call failed with
	 * @return the same failure, its stack trace the caller's
	 */
	static Throwable onCallersThread(Throwable failure) {
		for (Throwable suppressed : failure.getSuppressed()) {
			if (suppressed instanceof ProducedElsewhere) {
				// Thrown to a caller already (a failure shared by several calls): leave it.
				return failure;
			}
		}
		StackTraceElement[] elsewhere = failure.getStackTrace();
		StackTraceElement[] here = new Throwable().getStackTrace();
		// Frame 0 is this method; the caller's own begin where the failure is thrown.
		failure.setStackTrace(Arrays.copyOfRange(here, 1, here.length));
		failure.addSuppressed(new ProducedElsewhere(elsewhere));
		return failure;
	}

	/** Where a failure thrown on the calling thread was produced. */
	static final class ProducedElsewhere extends RuntimeException {

		private static final long serialVersionUID = 1L;

		ProducedElsewhere(StackTraceElement[] frames) {
			super("The failure was produced on another thread, here; the frames above are those of the call", null,
					false, true);
			setStackTrace(frames);
		}

	}

}

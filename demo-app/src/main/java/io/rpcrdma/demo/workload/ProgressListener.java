package io.rpcrdma.demo.workload;

/**
 * Told how far a workload got, from one thread at a time.
 */
@FunctionalInterface
public interface ProgressListener {

	/** Ignores progress. */
	ProgressListener NONE = (fraction, calls, bytes, elapsedNanos) -> {
	};

	/**
	 * @param fraction how much of the run is done, 0 to 1
	 * @param calls calls completed so far
	 * @param bytes object bytes moved so far
	 * @param elapsedNanos time since the start
	 */
	void progress(double fraction, long calls, long bytes, long elapsedNanos);

}

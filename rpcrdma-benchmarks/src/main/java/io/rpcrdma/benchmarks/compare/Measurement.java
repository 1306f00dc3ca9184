package io.rpcrdma.benchmarks.compare;

/**
 * One figure of the comparison.
 *
 * @param scenario the case: {@code latency}, {@code throughput}, {@code bulk-argument} or
 * {@code bulk-result}
 * @param contender who was measured
 * @param parameter what the case was run with: thread count or payload size in bytes
 * @param metric what was measured: {@code p50}, {@code p99}, {@code calls/s}, {@code MB/s}
 * @param value the figure
 * @param unit its unit
 * @param calls how many calls it is taken from
 */
record Measurement(String scenario, String contender, long parameter, String metric, double value, String unit,
		long calls) {

	static final String LATENCY = "latency";

	static final String THROUGHPUT = "throughput";

	static final String BULK_ARGUMENT = "bulk-argument";

	static final String BULK_RESULT = "bulk-result";

	/** 64-byte calls over a client connection per client thread ({@link Growth}). */
	static final String CONNECTIONS = "connections";

	/** 64-byte calls from {@link Compare#BLOCKING_THREADS} platform client threads. */
	static final String BLOCKING_PLATFORM = "blocking-platform-threads";

	/** The same from virtual threads (Java 21+). */
	static final String BLOCKING_VIRTUAL = "blocking-virtual-threads";

	/** {@link #LATENCY} while {@link BusyMachine} keeps every core busy. */
	static final String LATENCY_BUSY = "latency-busy-machine";

	/** {@link #THROUGHPUT} while {@link BusyMachine} keeps every core busy. */
	static final String THROUGHPUT_BUSY = "throughput-busy-machine";

	/** What the scenarios measured on a busy machine end with. */
	static final String BUSY_SUFFIX = "-busy-machine";

}

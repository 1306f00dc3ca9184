package io.rpcrdma.demo.workload;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * What the calls of one kind (or all calls) did.
 *
 * @param name the operation, or {@code "all"}
 * @param calls how many completed
 * @param bytes object bytes they moved (put and get contents)
 * @param p50 the median latency
 * @param p99 the 99th percentile latency
 */
public record OperationStats(String name, long calls, long bytes, Duration p50, Duration p99) {

	/**
	 * @param name the operation
	 * @param latencies latency logs of every thread
	 * @return their combined statistics
	 */
	static OperationStats of(String name, List<LatencyLog> latencies) {
		long[] all = latencies.stream().map(LatencyLog::values).flatMapToLong(Arrays::stream).sorted().toArray();
		long bytes = latencies.stream().mapToLong(LatencyLog::bytes).sum();
		return new OperationStats(name, all.length, bytes, percentile(all, 50), percentile(all, 99));
	}

	/** Nearest-rank percentile of sorted values. */
	static Duration percentile(long[] sorted, int percent) {
		if (sorted.length == 0) {
			return Duration.ZERO;
		}
		int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
		return Duration.ofNanos(sorted[Math.max(0, rank - 1)]);
	}

}

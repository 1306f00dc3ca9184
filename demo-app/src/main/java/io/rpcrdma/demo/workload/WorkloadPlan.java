package io.rpcrdma.demo.workload;

import java.time.Duration;
import java.util.Objects;

/**
 * What a workload does: for how long, with how many threads, and how large its objects get.
 * Each thread works on its own keys ({@code <prefix>t<n>/...}) so that it can check every
 * object it reads against what it stored.
 *
 * @param duration how long to run
 * @param maxCalls stop after this many calls in all even if time is left ({@code 0}: no limit)
 * @param threads concurrent callers
 * @param largestObject the largest object stored (a few are this large; most are small)
 * @param keyPrefix where in the store the workload's keys live
 * @param seed makes the sequence of calls repeatable
 */
public record WorkloadPlan(Duration duration, long maxCalls, int threads, int largestObject, String keyPrefix,
		long seed) {

	/** Checks the plan. */
	public WorkloadPlan {
		Objects.requireNonNull(duration, "duration");
		Objects.requireNonNull(keyPrefix, "keyPrefix");
		if (duration.isNegative() || duration.isZero()) {
			throw new IllegalArgumentException("demo.workload.duration must be positive, got " + duration);
		}
		if (maxCalls < 0) {
			throw new IllegalArgumentException("demo.workload.max-calls must be 0 (no limit) or more, got " + maxCalls);
		}
		if (threads < 1 || threads > 256) {
			throw new IllegalArgumentException("demo.workload.threads must be between 1 and 256, got " + threads);
		}
		if (largestObject < 1024) {
			throw new IllegalArgumentException("demo.workload.largest-object must be at least 1KB, got " + largestObject + " B");
		}
	}

}

package io.rpcrdma.benchmarks.compare;

import java.time.Duration;

/**
 * How long each case warms up and measures, by run mode.
 *
 * @param name the mode's name, recorded with the results
 * @param contenderWarmup how long each contender is first driven from several threads, so
 * that its code is compiled before any case measures it: a slow contender makes few calls
 * in a case's own warm-up and would otherwise be measured partly interpreted
 * @param warmup time each case runs before measuring (JIT, connections, pools)
 * @param measure time each case is measured for
 * @param latencyMeasure time the latency case is measured for
 * @param minCalls the fewest measured calls per case, whatever the time
 * @param rounds how many times every case is measured, contenders interleaved (A, B, C, A, B,
 * C, ...); targets are judged on the per-round ratios
 */
record Pace(String name, Duration contenderWarmup, Duration warmup, Duration measure, Duration latencyMeasure, int minCalls,
		int rounds) {

	/** The full comparison: about five minutes for five contenders. */
	static final Pace FULL = new Pace("full", Duration.ofSeconds(6), Duration.ofMillis(1500), Duration.ofSeconds(3), Duration.ofSeconds(5), 5, 5);

	/** About a minute: for development, figures are rougher. */
	static final Pace QUICK = new Pace("quick", Duration.ofSeconds(1), Duration.ofMillis(250), Duration.ofMillis(600), Duration.ofSeconds(1), 3, 3);

	/** A few calls per case, to prove every path works: no figure means anything. */
	static final Pace SMOKE = new Pace("smoke", Duration.ZERO, Duration.ZERO, Duration.ofMillis(10), Duration.ofMillis(20), 3, 1);

}

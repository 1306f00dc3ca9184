package io.rpcrdma.benchmarks.attack;

import java.time.Duration;

/**
 * How long each phase of an under-attack run lasts, by run mode.
 *
 * @param name the mode's name, recorded with the results
 * @param settle how long an attack runs before the honest clients are measured, so that it has
 * taken hold (opened its connections, pinned its memory)
 * @param warmup how long each kind of honest call runs before its window
 * @param measure each kind's measured window
 * @param rounds how many times every phase is run, phases interleaved
 * @param operationTimeout the server's operation timeout, {@code null} for the library's
 * default (30 s)
 * @param awaitEvidence whether a phase waits, before it stops its attack, until the attack shows
 * it reached the server (a drop or a reply), for the smoke run's checks
 */
record AttackPace(String name, Duration settle, Duration warmup, Duration measure, int rounds,
		Duration operationTimeout, boolean awaitEvidence) {

	/** Five rounds of 2-second windows: about thirteen minutes. */
	static final AttackPace FULL = new AttackPace("full", Duration.ofSeconds(1), Duration.ofMillis(500),
			Duration.ofSeconds(2), 5, null, false);

	/** Three rounds of 1-second windows: about four minutes, rougher figures. */
	static final AttackPace QUICK = new AttackPace("quick", Duration.ofMillis(500), Duration.ofMillis(250),
			Duration.ofSeconds(1), 3, null, false);

	/**
	 * A few calls per phase, to prove every attack runs and reaches the server; the operation
	 * timeout is 3 s so that the unanswered Reads' connections are dropped within the run, but
	 * not before the honest windows have seen the memory they pin.
	 */
	static final AttackPace SMOKE = new AttackPace("smoke", Duration.ZERO, Duration.ZERO, Duration.ofMillis(100), 1,
			Duration.ofSeconds(3), true);

}

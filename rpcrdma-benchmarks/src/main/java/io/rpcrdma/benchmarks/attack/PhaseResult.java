package io.rpcrdma.benchmarks.attack;

import java.util.List;

/**
 * One phase of one round: the honest figures with one attack running (or none, the baseline),
 * what the attack did, and what the server held.
 *
 * @param round the round, from 1
 * @param phase {@link #BASELINE} or the attack's key
 * @param honest the honest figures, one per kind of call
 * @param attack what the attack did; {@link Attack.Counts#NONE} for the baseline
 * @param before the server before the phase
 * @param during the server at the end of the measurement, the attack still running
 * @param after the server once the attack stopped and its connections were gone
 * @param settled whether the server was back to the honest connections alone, with its bulk
 * memory returned, within the settle deadline
 * @param leasableAfter whether the server could then still lease a buffer of a size class no
 * phase uses ({@link AttackedServer#canLeaseUnusedClass()})
 */
record PhaseResult(int round, String phase, List<HonestLoad.Figures> honest, Attack.Counts attack,
		AttackedServer.Snapshot before, AttackedServer.Snapshot during, AttackedServer.Snapshot after,
		boolean settled, boolean leasableAfter) {

	/** The phase without an attack. */
	static final String BASELINE = "baseline";

	PhaseResult {
		honest = List.copyOf(honest);
	}

	/**
	 * @param kind a kind of honest call
	 * @return its figures in this phase
	 * @throws IllegalArgumentException if it was not measured
	 */
	HonestLoad.Figures figures(HonestLoad.Kind kind) {
		return this.honest.stream()
			.filter((f) -> f.kind() == kind)
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException(kind + " was not measured in " + this.phase));
	}

	/** @return honest calls that failed in this phase, every kind */
	long honestFailures() {
		return this.honest.stream().mapToLong(HonestLoad.Figures::failures).sum();
	}

}

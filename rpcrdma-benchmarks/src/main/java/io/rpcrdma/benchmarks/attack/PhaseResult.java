package io.rpcrdma.benchmarks.attack;

import java.util.List;

/**
 * One phase of one round, on a server of its own: the honest figures alone and then with one
 * attack running, what the attack did, and what the server held.
 *
 * @param round the round, from 1
 * @param phase {@link #BASELINE} (no attack: the warm-up) or the attack's key
 * @param baseline the honest figures alone, just before the attack, one per kind of call
 * @param honest the honest figures with the attack running, one per kind of call (the baseline's
 * again for the phase without an attack)
 * @param attack what the attack did; {@link Attack.Counts#NONE} for the baseline
 * @param before the server before the phase
 * @param during the server at the end of the measurement, the attack still running
 * @param after the server once the attack stopped and its connections were gone
 * @param settled whether the server was back to the honest connections alone, with its bulk
 * memory returned, within the settle deadline
 * @param leasableAfter whether the server could then still lease a buffer of a size class no
 * phase uses ({@link AttackedServer#canLeaseUnusedClass()})
 * @param peakLocalBulkLeased the most local bulk memory the server held at the end of any
 * kind's window, attack running or not
 */
record PhaseResult(int round, String phase, List<HonestLoad.Figures> baseline, List<HonestLoad.Figures> honest, Attack.Counts attack,
		AttackedServer.Snapshot before, AttackedServer.Snapshot during, AttackedServer.Snapshot after,
		boolean settled, boolean leasableAfter, long peakLocalBulkLeased) {

	/** The phase without an attack. */
	static final String BASELINE = "baseline";

	PhaseResult {
		baseline = List.copyOf(baseline);
		honest = List.copyOf(honest);
	}

	/**
	 * @param kind a kind of honest call
	 * @return its figures with the attack running
	 * @throws IllegalArgumentException if it was not measured
	 */
	HonestLoad.Figures figures(HonestLoad.Kind kind) {
		return find(this.honest, kind);
	}

	/**
	 * @param kind a kind of honest call
	 * @return its figures alone, before the attack
	 * @throws IllegalArgumentException if it was not measured
	 */
	HonestLoad.Figures baselineFigures(HonestLoad.Kind kind) {
		return find(this.baseline, kind);
	}

	private HonestLoad.Figures find(List<HonestLoad.Figures> figures, HonestLoad.Kind kind) {
		return figures.stream()
			.filter((f) -> f.kind() == kind)
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException(kind + " was not measured in " + this.phase));
	}

	/** @return honest calls that failed with the attack running, every kind */
	long honestFailures() {
		return this.honest.stream().mapToLong(HonestLoad.Figures::failures).sum();
	}

	/** @return honest calls that failed alone, before the attack, every kind */
	long baselineFailures() {
		return this.baseline.stream().mapToLong(HonestLoad.Figures::failures).sum();
	}

}

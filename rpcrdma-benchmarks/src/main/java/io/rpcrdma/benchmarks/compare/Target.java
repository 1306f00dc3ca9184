package io.rpcrdma.benchmarks.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A target, as the ratio of two contenders' figures in the same round, judged over all rounds:
 * the median of the per-round ratios, and their interquartile range. A shared machine moves
 * single figures a lot; a target counts as met only when the whole range meets it, so one lucky
 * round cannot meet it and one unlucky round cannot miss it.
 *
 * @param description what is compared, e.g. {@code 64-byte p50: rpcrdma-siw / socket}
 * @param ratio the median of the per-round ratios
 * @param q1 their first quartile
 * @param q3 their third quartile
 * @param rounds how many rounds had both figures
 * @param bound the target bound
 * @param atMost whether the ratio must be at most (latency) or at least (throughput) the bound
 */
record Target(String description, double ratio, double q1, double q3, int rounds, double bound, boolean atMost) {

	/** @return whether the whole interquartile range meets the bound */
	boolean met() {
		return this.atMost ? this.q3 <= this.bound : this.q1 >= this.bound;
	}

	/** @return {@code ≤ 1.5} or {@code ≥ 3} */
	String boundText() {
		return (this.atMost ? "≤ " : "≥ ") + Reports.number(this.bound);
	}

	/**
	 * The targets for one rpcrdma contender against the socket floor and gRPC-java.
	 * @param rounds each round's figures
	 * @param subject the rpcrdma contender
	 * @return the targets whose figures were measured in at least one round
	 */
	static List<Target> evaluate(List<List<Measurement>> rounds, String subject) {
		List<Target> targets = new ArrayList<>();
		add(targets, rounds, subject, Contenders.SOCKET, Measurement.LATENCY, Workload.SMALL, "p50", 1.5, true,
				"64-byte p50 latency");
		add(targets, rounds, subject, Contenders.GRPC, Measurement.LATENCY, Workload.SMALL, "p50", 0.35, true,
				"64-byte p50 latency");
		add(targets, rounds, subject, Contenders.GRPC, Measurement.THROUGHPUT, 16, "calls/s", 3, false,
				"16-thread throughput");
		add(targets, rounds, subject, Contenders.SOCKET, Measurement.LATENCY_BUSY, Workload.SMALL, "p50", 2, true,
				"64-byte p50 latency on a busy machine");
		// What a call costs the machine, steadier than its time on a shared host (issue #36).
		add(targets, rounds, subject, Contenders.SOCKET, Measurement.LATENCY, Workload.SMALL, Workload.CPU_PER_CALL, 1.2,
				true, "CPU time per 64-byte call, 1 thread");
		for (String scenario : List.of(Measurement.BULK_ARGUMENT, Measurement.BULK_RESULT)) {
			String what = "1 MiB " + direction(scenario) + " MB/s";
			add(targets, rounds, subject, Contenders.SOCKET, scenario, 1 << 20, "MB/s", 0.7, false, what);
			add(targets, rounds, subject, Contenders.GRPC, scenario, 1 << 20, "MB/s", 3, false, what);
		}
		// Mid-size bulk: at least gRPC-java ("Done when"), and half the socket (what to do).
		for (String scenario : List.of(Measurement.BULK_ARGUMENT, Measurement.BULK_RESULT)) {
			String what = "64 KiB " + direction(scenario) + " MB/s";
			add(targets, rounds, subject, Contenders.SOCKET, scenario, 64 << 10, "MB/s", 0.5, false, what);
			add(targets, rounds, subject, Contenders.GRPC, scenario, 64 << 10, "MB/s", 1, false, what);
		}
		return targets;
	}

	private static String direction(String scenario) {
		return Measurement.BULK_ARGUMENT.equals(scenario) ? "argument" : "result";
	}

	private static void add(List<Target> targets, List<List<Measurement>> rounds, String subject, String reference,
			String scenario, long parameter, String metric, double bound, boolean atMost, String what) {
		List<Double> ratios = new ArrayList<>();
		for (List<Measurement> round : rounds) {
			Optional<Double> mine = find(round, subject, scenario, parameter, metric);
			Optional<Double> theirs = find(round, reference, scenario, parameter, metric);
			if (mine.isPresent() && theirs.isPresent() && theirs.get() > 0) {
				ratios.add(mine.get() / theirs.get());
			}
		}
		if (!ratios.isEmpty()) {
			double[] values = ratios.stream().mapToDouble(Double::doubleValue).toArray();
			targets.add(new Target(what + ": " + subject + " / " + reference, Rounds.quantile(values, 0.5),
					Rounds.quantile(values, 0.25), Rounds.quantile(values, 0.75), values.length, bound, atMost));
		}
	}

	static Optional<Double> find(List<Measurement> results, String contender, String scenario, long parameter,
			String metric) {
		return results.stream()
			.filter((m) -> m.contender().equals(contender) && m.scenario().equals(scenario) && m.parameter() == parameter
					&& m.metric().equals(metric))
			.map(Measurement::value)
			.findFirst();
	}

}

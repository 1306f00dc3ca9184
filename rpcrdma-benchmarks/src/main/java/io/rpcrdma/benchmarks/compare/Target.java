package io.rpcrdma.benchmarks.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A target of issue 9, as a ratio of two figures of the same run.
 *
 * @param description what is compared, e.g. {@code 64-byte p50: rpcrdma-siw / socket}
 * @param ratio the measured ratio
 * @param bound the target bound
 * @param atMost whether the ratio must be at most (latency) or at least (throughput) the bound
 */
record Target(String description, double ratio, double bound, boolean atMost) {

	/** @return whether the run met the target */
	boolean met() {
		return this.atMost ? this.ratio <= this.bound : this.ratio >= this.bound;
	}

	/** @return {@code ≤ 1.5} or {@code ≥ 3} */
	String boundText() {
		return (this.atMost ? "≤ " : "≥ ") + Reports.number(this.bound);
	}

	/**
	 * The targets for one rpcrdma contender against the socket floor and gRPC-java.
	 * @param results the run's figures
	 * @param subject the rpcrdma contender
	 * @return the targets whose figures were all measured
	 */
	static List<Target> evaluate(List<Measurement> results, String subject) {
		List<Target> targets = new ArrayList<>();
		add(targets, results, subject, Contenders.SOCKET, Measurement.LATENCY, Workload.SMALL, "p50", 1.5, true,
				"64-byte p50 latency");
		add(targets, results, subject, Contenders.GRPC, Measurement.LATENCY, Workload.SMALL, "p50", 0.35, true,
				"64-byte p50 latency");
		add(targets, results, subject, Contenders.GRPC, Measurement.THROUGHPUT, 16, "calls/s", 3, false,
				"16-thread throughput");
		for (String scenario : List.of(Measurement.BULK_ARGUMENT, Measurement.BULK_RESULT)) {
			String what = "1 MiB " + (Measurement.BULK_ARGUMENT.equals(scenario) ? "argument" : "result") + " MB/s";
			add(targets, results, subject, Contenders.SOCKET, scenario, 1 << 20, "MB/s", 0.7, false, what);
			add(targets, results, subject, Contenders.GRPC, scenario, 1 << 20, "MB/s", 3, false, what);
		}
		return targets;
	}

	private static void add(List<Target> targets, List<Measurement> results, String subject, String reference,
			String scenario, long parameter, String metric, double bound, boolean atMost, String what) {
		Optional<Double> mine = find(results, subject, scenario, parameter, metric);
		Optional<Double> theirs = find(results, reference, scenario, parameter, metric);
		if (mine.isPresent() && theirs.isPresent() && theirs.get() > 0) {
			targets.add(new Target(what + ": " + subject + " / " + reference, mine.get() / theirs.get(), bound, atMost));
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

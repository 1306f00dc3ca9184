package io.rpcrdma.benchmarks.compare;

import java.util.List;

/**
 * A finished comparison run.
 *
 * @param pace how long each case ran
 * @param machine where, with the load at start and end
 * @param results one figure per case: the median of its rounds, in the order measured
 * @param rounds every round's figures, as measured
 * @param targets the ratios for rpcrdma over software iWARP
 */
record Run(Pace pace, Machine machine, List<Measurement> results, List<List<Measurement>> rounds, List<Target> targets) {

	Run {
		results = List.copyOf(results);
		rounds = rounds.stream().map(List::copyOf).toList();
		targets = List.copyOf(targets);
	}

}

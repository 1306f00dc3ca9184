package io.rpcrdma.benchmarks.compare;

import java.util.List;

/**
 * A finished comparison run.
 *
 * @param pace how long each case ran
 * @param machine where, with the load at start and end
 * @param results every figure, in the order measured
 * @param targets the ratios for rpcrdma over software iWARP
 */
record Run(Pace pace, Machine machine, List<Measurement> results, List<Target> targets) {

	Run {
		results = List.copyOf(results);
		targets = List.copyOf(targets);
	}

}

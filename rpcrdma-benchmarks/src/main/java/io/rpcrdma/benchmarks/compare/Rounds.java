package io.rpcrdma.benchmarks.compare;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What several rounds of the same cases add up to: one figure per case, the median of its
 * rounds, and the quartiles of a list of values.
 */
public final class Rounds {

	private Rounds() {
	}

	/**
	 * One measurement per case: the median value over the rounds, the calls of all of them.
	 * @param rounds each round's measurements
	 * @return the medians, in the order of the first round
	 */
	static List<Measurement> medians(List<List<Measurement>> rounds) {
		Map<String, List<Measurement>> byCase = new LinkedHashMap<>();
		for (List<Measurement> round : rounds) {
			for (Measurement m : round) {
				byCase.computeIfAbsent(key(m), (k) -> new ArrayList<>()).add(m);
			}
		}
		List<Measurement> medians = new ArrayList<>(byCase.size());
		for (List<Measurement> same : byCase.values()) {
			Measurement first = same.get(0);
			double[] values = same.stream().mapToDouble(Measurement::value).toArray();
			long calls = same.stream().mapToLong(Measurement::calls).sum();
			medians.add(new Measurement(first.scenario(), first.contender(), first.parameter(), first.metric(),
					quantile(values, 0.5), first.unit(), calls));
		}
		return medians;
	}

	/**
	 * A quantile by linear interpolation between the closest ranks.
	 * @param values the values (not changed)
	 * @param q 0.25, 0.5, 0.75...
	 * @return the quantile; NaN for no values
	 */
	public static double quantile(double[] values, double q) {
		if (values.length == 0) {
			return Double.NaN;
		}
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		double rank = q * (sorted.length - 1);
		int low = (int) Math.floor(rank);
		int high = (int) Math.ceil(rank);
		return sorted[low] + (rank - low) * (sorted[high] - sorted[low]);
	}

	private static String key(Measurement m) {
		return m.scenario() + '|' + m.contender() + '|' + m.parameter() + '|' + m.metric();
	}

}

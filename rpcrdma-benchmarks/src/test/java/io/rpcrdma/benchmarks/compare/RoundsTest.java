package io.rpcrdma.benchmarks.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Rounds become one median per case, and targets are judged on the interquartile range of
 * their per-round ratios: one lucky or unlucky round decides nothing.
 */
class RoundsTest {

	@Test
	void quantilesInterpolateBetweenRanks() {
		double[] values = { 4, 1, 3, 2 };
		assertThat(Rounds.quantile(values, 0.5)).isEqualTo(2.5);
		assertThat(Rounds.quantile(values, 0.25)).isCloseTo(1.75, within(1e-9));
		assertThat(Rounds.quantile(values, 0.75)).isCloseTo(3.25, within(1e-9));
		assertThat(values).containsExactly(4, 1, 3, 2);
		assertThat(Rounds.quantile(new double[] { 7 }, 0.25)).isEqualTo(7);
	}

	@Test
	void eachCaseBecomesTheMedianOfItsRounds() {
		List<List<Measurement>> rounds = List.of(List.of(latency("a", 10), latency("b", 30)),
				List.of(latency("a", 50), latency("b", 20)), List.of(latency("a", 20), latency("b", 40)));
		assertThat(Rounds.medians(rounds)).extracting(Measurement::contender, Measurement::value, Measurement::calls)
			.containsExactly(org.assertj.core.groups.Tuple.tuple("a", 20.0, 300L),
					org.assertj.core.groups.Tuple.tuple("b", 30.0, 300L));
	}

	@Test
	void aTargetIsMetOnlyWhenItsWholeInterquartileRangeMeetsIt() {
		// rpcrdma-siw / socket p50 per round: 1.0, 1.2, 1.4, 1.6, 3.0 -> median 1.4, IQR 1.2-1.6.
		List<List<Measurement>> rounds = List.of(pair(1.0), pair(1.2), pair(1.4), pair(1.6), pair(3.0));
		Target p50 = Target.evaluate(rounds, Contenders.SIW)
			.stream()
			.filter((t) -> t.description().equals("64-byte p50 latency: rpcrdma-siw / socket"))
			.findFirst()
			.orElseThrow();
		assertThat(p50.ratio()).isCloseTo(1.4, within(1e-9));
		assertThat(p50.q1()).isCloseTo(1.2, within(1e-9));
		assertThat(p50.q3()).isCloseTo(1.6, within(1e-9));
		assertThat(p50.rounds()).isEqualTo(5);
		// The bound is 1.5: the median meets it, the range does not.
		assertThat(p50.met()).isFalse();
		Target easier = new Target(p50.description(), p50.ratio(), p50.q1(), p50.q3(), 5, 1.6, true);
		assertThat(easier.met()).isTrue();
	}

	private static List<Measurement> pair(double ratio) {
		return List.of(new Measurement(Measurement.LATENCY, Contenders.SIW, Workload.SMALL, "p50", 10 * ratio, "us", 100),
				new Measurement(Measurement.LATENCY, Contenders.SOCKET, Workload.SMALL, "p50", 10, "us", 100));
	}

	private static Measurement latency(String contender, double value) {
		return new Measurement(Measurement.LATENCY, contender, Workload.SMALL, "p50", value, "us", 100);
	}

}

package io.rpcrdma.client.balance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The built-in balancers over fixed candidates: how they share calls out, what they prefer,
 * and what they skip.
 */
class BalancerTest {

	/** Candidates with fixed outstanding counts; a negative count marks an ineligible one. */
	private record Fixed(int... outstanding) implements Balancer.Candidates {

		@Override
		public int size() {
			return this.outstanding.length;
		}

		@Override
		public boolean eligible(int index) {
			return this.outstanding[index] >= 0;
		}

		@Override
		public int outstanding(int index) {
			return this.outstanding[index];
		}

	}

	private static int[] picks(Balancer balancer, Balancer.Candidates candidates, int calls) {
		int[] counts = new int[candidates.size()];
		for (int i = 0; i < calls; i++) {
			int chosen = balancer.choose(candidates);
			assertThat(chosen).as("an eligible candidate").isBetween(0, candidates.size() - 1);
			assertThat(candidates.eligible(chosen)).as("candidate %d eligible", chosen).isTrue();
			counts[chosen]++;
		}
		return counts;
	}

	@Test
	void roundRobinGivesEachInstanceTheSameShare() {
		assertThat(picks(BalancerKind.ROUND_ROBIN.create(new SplittableRandom(1)), new Fixed(0, 0, 0), 300))
			.containsExactly(100, 100, 100);
	}

	@Test
	void roundRobinSharesAnIneligibleInstancesTurnsEvenlyInsteadOfDoublingItsNeighbour() {
		assertThat(picks(BalancerKind.ROUND_ROBIN.create(new SplittableRandom(1)), new Fixed(0, -1, 0), 300))
			.containsExactly(150, 0, 150);
	}

	/**
	 * Two other callers draw between each of this caller's draws (as threads do): its draws
	 * land on the same index each time, which is ejected, while another index is up.
	 */
	@Test
	void roundRobinFindsTheOneEligibleInstanceWhileOtherCallersDrawBetweenItsDraws() {
		Balancer balancer = BalancerKind.ROUND_ROBIN.create(new SplittableRandom(1));
		Fixed allUp = new Fixed(0, 0, 0);
		Balancer.Candidates interleaved = new Balancer.Candidates() {

			@Override
			public int size() {
				return 3;
			}

			@Override
			public boolean eligible(int index) {
				balancer.choose(allUp);
				balancer.choose(allUp);
				return index == 2;
			}

			@Override
			public int outstanding(int index) {
				return 0;
			}

		};

		assertThat(balancer.choose(interleaved)).isEqualTo(2);
	}

	@Test
	void leastOutstandingAlwaysPrefersTheIdleInstance() {
		assertThat(picks(BalancerKind.LEAST_OUTSTANDING.create(new SplittableRandom(1)), new Fixed(5, 0, 3), 100))
			.containsExactly(0, 100, 0);
	}

	@Test
	void leastOutstandingSpreadsTies() {
		assertThat(picks(BalancerKind.LEAST_OUTSTANDING.create(new SplittableRandom(1)), new Fixed(2, 2, 2), 300))
			.containsExactly(100, 100, 100);
	}

	@Test
	void leastOutstandingPassesOverAnIneligibleIdleInstance() {
		assertThat(picks(BalancerKind.LEAST_OUTSTANDING.create(new SplittableRandom(1)), new Fixed(-1, 4, 3), 10))
			.containsExactly(0, 0, 10);
	}

	@Test
	void powerOfTwoChoicesSpreadsEqualLoadEvenlyWithinBounds() {
		int[] counts = picks(BalancerKind.POWER_OF_TWO_CHOICES.create(new SplittableRandom(42)), new Fixed(0, 0, 0, 0),
				40_000);
		// 10 000 each expected; a binomial standard deviation is about 87.
		for (int count : counts) {
			assertThat(count).isBetween(9_500, 10_500);
		}
	}

	@Test
	void powerOfTwoChoicesTakesTheLessLoadedOfTwoDraws() {
		// The idle instance wins whenever it is one of the two distinct draws: 1 - 3/4 × 2/3 = 1/2.
		int[] counts = picks(BalancerKind.POWER_OF_TWO_CHOICES.create(new SplittableRandom(7)), new Fixed(0, 9, 9, 9),
				40_000);
		assertThat(counts[0]).isBetween(19_000, 21_000);
		// Between two busy ones it takes the less busy: the busiest never wins against the idle one.
		int[] skewed = picks(BalancerKind.POWER_OF_TWO_CHOICES.create(new SplittableRandom(7)), new Fixed(1, 9), 1_000);
		assertThat(skewed).containsExactly(1_000, 0);
	}

	@Test
	void powerOfTwoChoicesIsReproducibleWithASeed() {
		Fixed candidates = new Fixed(0, 1, 0, 2, 0);
		Balancer one = BalancerKind.POWER_OF_TWO_CHOICES.create(new SplittableRandom(99));
		Balancer two = BalancerKind.POWER_OF_TWO_CHOICES.create(new SplittableRandom(99));
		for (int i = 0; i < 1_000; i++) {
			assertThat(one.choose(candidates)).isEqualTo(two.choose(candidates));
		}
	}

	@Test
	void everyBalancerFindsTheOneEligibleInstanceAndReportsNone() {
		for (BalancerKind kind : BalancerKind.values()) {
			Balancer balancer = kind.create(new SplittableRandom(3));
			assertThat(picks(balancer, new Fixed(-1, -1, 7, -1), 50)).as(kind.name()).containsExactly(0, 0, 50, 0);
			assertThat(balancer.choose(new Fixed(-1, -1))).as(kind.name()).isEqualTo(-1);
			assertThat(balancer.choose(new Fixed())).as(kind.name()).isEqualTo(-1);
		}
	}

	@Test
	void kindsAreNamedAsInConfiguration() {
		assertThat(BalancerKind.fromName("least-outstanding")).isEqualTo(BalancerKind.LEAST_OUTSTANDING);
		assertThat(BalancerKind.fromName("POWER_OF_TWO_CHOICES")).isEqualTo(BalancerKind.POWER_OF_TWO_CHOICES);
		assertThat(BalancerKind.fromName(" Round-Robin ")).isEqualTo(BalancerKind.ROUND_ROBIN);
		assertThatIllegalArgumentException().isThrownBy(() -> BalancerKind.fromName("random"))
			.withMessageContaining("round-robin, least-outstanding or power-of-two-choices");
	}

}

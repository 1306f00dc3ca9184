package io.rpcrdma.client.balance;

import java.util.random.RandomGenerator;

/** {@link BalancerKind#POWER_OF_TWO_CHOICES}. */
final class PowerOfTwoChoicesBalancer implements Balancer {

	private final RandomGenerator random;

	PowerOfTwoChoicesBalancer(RandomGenerator random) {
		this.random = random;
	}

	@Override
	public int choose(Candidates candidates) {
		int size = candidates.size();
		if (size == 0) {
			return -1;
		}
		// A draw that lands on an ineligible instance moves to the next eligible one: no list of
		// eligible instances is built per call. That favours the instance after an ejected one,
		// only while one is ejected.
		int first = eligibleFrom(candidates, this.random.nextInt(size), size, -1);
		if (first < 0 || size == 1) {
			return first;
		}
		// The second draw skips the first, so two eligible instances are always compared.
		int offset = 1 + this.random.nextInt(size - 1);
		int second = eligibleFrom(candidates, (first + offset) % size, size, first);
		if (second < 0) {
			return first;
		}
		return (candidates.outstanding(second) < candidates.outstanding(first)) ? second : first;
	}

	private static int eligibleFrom(Candidates candidates, int start, int size, int skip) {
		for (int i = 0; i < size; i++) {
			int index = start + i;
			if (index >= size) {
				index -= size;
			}
			if (index != skip && candidates.eligible(index)) {
				return index;
			}
		}
		return -1;
	}

}

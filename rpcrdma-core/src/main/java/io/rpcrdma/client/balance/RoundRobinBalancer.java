package io.rpcrdma.client.balance;

import java.util.concurrent.atomic.AtomicInteger;

/** {@link BalancerKind#ROUND_ROBIN}. */
final class RoundRobinBalancer implements Balancer {

	private final AtomicInteger next = new AtomicInteger();

	@Override
	public int choose(Candidates candidates) {
		int size = candidates.size();
		// The turn moves past an ineligible instance too, rather than handing its turn to the
		// next one: the eligible instances keep equal shares while one is ejected.
		for (int i = 0; i < size; i++) {
			int index = Math.floorMod(this.next.getAndIncrement(), size);
			if (candidates.eligible(index)) {
				return index;
			}
		}
		// Other callers draw between these draws, so under concurrency they need not have
		// covered every index: look at each once before saying none is eligible.
		if (size == 0) {
			return -1;
		}
		int from = Math.floorMod(this.next.get(), size);
		for (int i = 0; i < size; i++) {
			int index = Math.floorMod(from + i, size);
			if (candidates.eligible(index)) {
				return index;
			}
		}
		return -1;
	}

}

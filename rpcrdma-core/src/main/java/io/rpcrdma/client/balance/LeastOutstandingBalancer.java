package io.rpcrdma.client.balance;

import java.util.concurrent.atomic.AtomicInteger;

/** {@link BalancerKind#LEAST_OUTSTANDING}. */
final class LeastOutstandingBalancer implements Balancer {

	/** Where the scan starts, moved on each call so that ties do not all go to the first. */
	private final AtomicInteger next = new AtomicInteger();

	@Override
	public int choose(Candidates candidates) {
		int size = candidates.size();
		if (size == 0) {
			return -1;
		}
		int start = Math.floorMod(this.next.getAndIncrement(), size);
		int best = -1;
		int fewest = Integer.MAX_VALUE;
		for (int i = 0; i < size; i++) {
			int index = start + i;
			if (index >= size) {
				index -= size;
			}
			if (candidates.eligible(index)) {
				int outstanding = candidates.outstanding(index);
				if (outstanding < fewest) {
					best = index;
					fewest = outstanding;
				}
			}
		}
		return best;
	}

}

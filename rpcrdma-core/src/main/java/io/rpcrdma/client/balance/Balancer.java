package io.rpcrdma.client.balance;

/**
 * Chooses the instance for one call attempt among candidates. Runs on every call, so it
 * must allocate nothing and never block; several threads call it at once.
 */
@FunctionalInterface
public interface Balancer {

	/**
	 * @param candidates the instances, some of them not eligible (ejected, or tried already by
	 * this call)
	 * @return the index of an eligible candidate, or -1 if none is
	 */
	int choose(Candidates candidates);

	/**
	 * The instances one call may go to, seen without copying them.
	 */
	interface Candidates {

		/** @return how many there are, eligible or not */
		int size();

		/**
		 * @param index 0 to {@code size() - 1}
		 * @return whether the call may go there
		 */
		boolean eligible(int index);

		/**
		 * @param index 0 to {@code size() - 1}
		 * @return the calls sent there and not yet ended
		 */
		int outstanding(int index);

	}

}

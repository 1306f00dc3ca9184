package io.rpcrdma.verbs.disni;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import io.rpcrdma.verbs.QueuePairLimitException;
import io.rpcrdma.verbs.RdmaException;

/**
 * The provider's shared adapter completion queues ({@code disni.completion-queues} at
 * most), and which queue pair uses which.
 * <p>
 * A queue pair reserves entries for its whole send and receive queue depths on one queue
 * when it is created, because an adapter queue that overruns goes into error for every queue
 * pair on it (and DiSNI 2.1 cannot resize one). The first queue pairs each get a new queue, up
 * to the limit, so that the event threads share the work; after that each goes to the queue
 * with the fewest reserved entries. When none has room the queue pair is refused with a
 * {@link QueuePairLimitException} that says what to change.
 */
final class SharedCompletionQueues {

	/** Makes the next shared queue. */
	@FunctionalInterface
	interface Factory {

		/**
		 * @param number the queue's number, from 1
		 * @return the new queue, its thread started
		 * @throws IOException if the adapter refused it
		 */
		SharedCompletionQueue create(int number) throws IOException;

	}

	private final int limit;

	private final Factory factory;

	private final String device;

	private final List<SharedCompletionQueue> queues = new ArrayList<>();

	private volatile SharedCompletionQueue[] snapshot = new SharedCompletionQueue[0];

	private boolean closed;

	/**
	 * @param limit the most queues
	 * @param factory makes them, when needed
	 * @param device the device's name, for messages
	 */
	SharedCompletionQueues(int limit, Factory factory, String device) {
		this.limit = limit;
		this.factory = factory;
		this.device = device;
	}

	/**
	 * Reserves entries for a queue pair's depths.
	 * @param entries its send plus receive queue depths
	 * @param member told if the queue fails
	 * @return the queue it is to use
	 * @throws QueuePairLimitException if no queue has room and no more may be made
	 * @throws RdmaException if the adapter refused a new queue
	 */
	synchronized SharedCompletionQueue reserve(int entries, SharedCompletionQueue.Member member) {
		if (this.closed) {
			throw new IllegalStateException("The disni provider's completion queues are closed");
		}
		SharedCompletionQueue best = null;
		for (SharedCompletionQueue queue : this.queues) {
			if (!queue.isFailed() && queue.capacity() - queue.reserved() >= entries
					&& (best == null || queue.reserved() < best.reserved())) {
				best = queue;
			}
		}
		if ((best == null || best.reserved() > 0) && this.queues.size() < this.limit) {
			SharedCompletionQueue created = create();
			if (created.capacity() >= entries) {
				best = created;
			}
		}
		if (best == null) {
			throw refusal(entries);
		}
		best.reserve(entries, member);
		return best;
	}

	private SharedCompletionQueue create() {
		SharedCompletionQueue queue;
		try {
			queue = this.factory.create(this.queues.size() + 1);
		}
		catch (IOException ex) {
			throw new RdmaException("Creating shared completion queue " + (this.queues.size() + 1) + " on "
					+ this.device + " failed: " + DisniProtectionDomain.describe(ex) + "; lower "
					+ DisniSettings.COMPLETION_QUEUE_ENTRIES, ex);
		}
		this.queues.add(queue);
		this.snapshot = this.queues.toArray(new SharedCompletionQueue[0]);
		return queue;
	}

	private QueuePairLimitException refusal(int entries) {
		int capacity = this.queues.isEmpty() ? 0 : this.queues.get(0).capacity();
		if (capacity > 0 && entries > capacity) {
			return new QueuePairLimitException("A queue pair with " + entries + " work requests (send plus receive "
					+ "depth) needs more entries than a shared completion queue of " + this.device + " has ("
					+ capacity + "); lower the queue depths or raise " + DisniSettings.COMPLETION_QUEUE_ENTRIES);
		}
		int reserved = 0;
		for (SharedCompletionQueue queue : this.queues) {
			reserved += queue.reserved();
		}
		return new QueuePairLimitException("The " + this.queues.size() + " shared completion queues of " + this.device
				+ " are full (" + reserved + " of " + (this.queues.size() * capacity) + " entries reserved, "
				+ "each queue pair reserving its send plus receive depth, " + entries + " for this one); close "
				+ "connections, or raise " + DisniSettings.COMPLETION_QUEUES + " (at most "
				+ DisniSettings.MAX_COMPLETION_QUEUES + ") or " + DisniSettings.COMPLETION_QUEUE_ENTRIES);
	}

	/**
	 * Gives a queue pair's entries back.
	 * @param queue the queue it reserved them on
	 * @param entries as many as it reserved
	 * @param member the queue pair
	 */
	synchronized void release(SharedCompletionQueue queue, int entries, SharedCompletionQueue.Member member) {
		queue.release(entries, member);
	}

	/**
	 * @return the queues made so far, for the busy poller (no lock, no copy)
	 */
	SharedCompletionQueue[] queues() {
		return this.snapshot;
	}

	/**
	 * Closes every queue; their queue pairs are gone.
	 */
	void close() {
		SharedCompletionQueue[] all;
		synchronized (this) {
			this.closed = true;
			all = this.snapshot;
		}
		for (SharedCompletionQueue queue : all) {
			queue.close();
		}
	}

}

package io.rpcrdma.verbs.disni;

import java.util.ArrayDeque;
import java.util.function.IntFunction;

import com.ibm.disni.verbs.IbvWC;

/**
 * Hands the completions one {@code ibv_poll_cq} took from a shared adapter completion queue
 * to the queue pairs they belong to, then tells each SPI completion queue that received any,
 * once, in the order their first completion arrived.
 * <p>
 * The queue pair is read from the hardware wr_id ({@link WorkRequestIds}), not from
 * {@code ibv_wc.qp_num}: verbs defines only wr_id and status for a failed or flushed
 * completion, and DiSNI 2.1 copies nothing else out of one. A completion of a queue pair
 * that is gone (closed, its work reported flushed) is dropped.
 * <p>
 * Used by one thread at a time: the shared queue's poller.
 */
final class CompletionDispatcher {

	/** Where a queue pair's completions go. */
	interface Route {

		/**
		 * Takes one completion of this queue pair.
		 * @param wc the adapter's completion, read now and not kept
		 * @return the SPI queue to notify, or {@code null} if the completion was dropped
		 */
		Sink deliver(IbvWC wc);

	}

	/** An SPI completion queue, told once per batch that it received completions. */
	interface Sink {

		/** Calls the queue's handler if it is armed. */
		void notifyIfArmed();

	}

	private final IntFunction<? extends Route> routes;

	private final ArrayDeque<Sink> touched = new ArrayDeque<>();

	private long dropped;

	/**
	 * @param routes the queue pairs by index ({@link WorkRequestIds#queuePairIndex}), giving
	 * {@code null} for one that is gone
	 */
	CompletionDispatcher(IntFunction<? extends Route> routes) {
		this.routes = routes;
	}

	/**
	 * Delivers polled completions to their queue pairs; {@link #notifyTouched()} then tells
	 * their queues.
	 * @param polled the array {@code ibv_poll_cq} filled
	 * @param count how many it filled
	 */
	void dispatch(IbvWC[] polled, int count) {
		for (int i = 0; i < count; i++) {
			IbvWC wc = polled[i];
			Route route = this.routes.apply(WorkRequestIds.queuePairIndex(wc.getWr_id()));
			Sink sink = (route != null) ? route.deliver(wc) : null;
			if (sink == null) {
				this.dropped++;
			}
			else if (!this.touched.contains(sink)) {
				// A batch is a few dozen completions (disni.poll-batch): a scan beats a set.
				this.touched.add(sink);
			}
		}
	}

	/**
	 * Tells every queue that received completions since the last call, each once. A handler
	 * may poll the shared queue again (closing its queue pair does, for the flushes) and so
	 * call this from inside: queues are taken off one by one, so none is told twice or lost.
	 */
	void notifyTouched() {
		Sink sink;
		while ((sink = this.touched.pollFirst()) != null) {
			sink.notifyIfArmed();
		}
	}

	/**
	 * @return the completions dropped so far, because their queue pair was gone
	 */
	long dropped() {
		return this.dropped;
	}

}

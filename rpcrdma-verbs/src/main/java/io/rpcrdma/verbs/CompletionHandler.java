package io.rpcrdma.verbs;

/**
 * Told that an armed {@link CompletionQueue} received a completion (verbs completion
 * channel event). Runs on a provider thread and must not block: poll, hand work off, re-arm
 * and poll again (see {@link CompletionQueue#requestNotification()}). Calls for one queue
 * never overlap.
 */
@FunctionalInterface
public interface CompletionHandler {

	/**
	 * The queue has new completions.
	 * @param cq the queue that was armed
	 */
	void onCompletion(CompletionQueue cq);

}

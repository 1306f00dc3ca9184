package io.rpcrdma.verbs;

/**
 * A completion queue was full when a completion arrived, so completions were lost (verbs
 * {@code IBV_EVENT_CQ_ERR}). Fatal for the queue: create completion queues with a
 * capacity of at least the sum of the queue depths of the queue pairs that use them.
 */
public class CompletionQueueOverrunException extends RdmaException {

	/**
	 * Creates the exception.
	 * @param message what overran
	 */
	public CompletionQueueOverrunException(String message) {
		super(message);
	}

}

package io.rpcrdma.verbs;

/**
 * A work request was posted to a send or receive queue that already holds its maximum of
 * outstanding work requests (verbs {@code ENOMEM} from {@code ibv_post_send}). Wait for
 * completions before posting more, or create the queue pair with deeper queues.
 */
public class QueueFullException extends RdmaException {

	/**
	 * Creates the exception.
	 * @param message which queue and its limit
	 */
	public QueueFullException(String message) {
		super(message);
	}

}

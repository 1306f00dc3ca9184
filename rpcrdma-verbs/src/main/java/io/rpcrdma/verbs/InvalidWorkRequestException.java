package io.rpcrdma.verbs;

/**
 * A work request cannot be posted as it is: too many scatter/gather entries for the queue
 * pair, or a malformed request (verbs {@code EINVAL} from {@code ibv_post_send}).
 */
public class InvalidWorkRequestException extends RdmaException {

	/**
	 * Creates the exception.
	 * @param message what is wrong and how to fix it
	 */
	public InvalidWorkRequestException(String message) {
		super(message);
	}

}

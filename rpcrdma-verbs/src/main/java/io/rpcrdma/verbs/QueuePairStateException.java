package io.rpcrdma.verbs;

/**
 * An operation is not allowed in the queue pair's current state, for example a Send on a
 * queue pair that is not connected yet or is closed.
 */
public class QueuePairStateException extends RdmaException {

	/**
	 * Creates the exception.
	 * @param message the state and what is allowed in it
	 */
	public QueuePairStateException(String message) {
		super(message);
	}

}

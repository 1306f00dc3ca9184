package io.rpcrdma.verbs;

/**
 * A queue pair was asked for while the provider had as many open as it allows (a device's
 * {@code max_qp}; {@code ibv_create_qp} fails with {@code ENOMEM} there). Close connections,
 * or raise the provider's limit.
 */
public class QueuePairLimitException extends RdmaException {

	/**
	 * @param message what the limit is, how to raise it
	 */
	public QueuePairLimitException(String message) {
		super(message);
	}

}

package io.rpcrdma.verbs;

/**
 * The connection request could not be delivered: nothing listens at the address, or it is
 * unreachable ({@link ConnectionEventType#CONNECT_ERROR}).
 */
public class ConnectionRefusedException extends ConnectionFailedException {

	/**
	 * Creates the exception.
	 * @param message the address and what to check
	 */
	public ConnectionRefusedException(String message) {
		super(ConnectionEventType.CONNECT_ERROR, message);
	}

}

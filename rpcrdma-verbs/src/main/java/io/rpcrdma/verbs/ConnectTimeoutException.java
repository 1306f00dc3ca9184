package io.rpcrdma.verbs;

/**
 * The peer did not accept or reject the connection request within the connect timeout.
 */
public class ConnectTimeoutException extends ConnectionFailedException {

	/**
	 * Creates the exception.
	 * @param message where and how long
	 */
	public ConnectTimeoutException(String message) {
		super(ConnectionEventType.TIMEOUT, message);
	}

}

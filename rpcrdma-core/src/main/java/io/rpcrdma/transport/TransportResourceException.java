package io.rpcrdma.transport;

/**
 * A registered buffer or a work queue slot was not available for the operation; the RPC
 * was not sent. Raise the memory pool's limits or lower the credits.
 */
public class TransportResourceException extends TransportException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message what ran out
	 * @param cause the underlying failure, or {@code null}
	 */
	public TransportResourceException(String message, Throwable cause) {
		super(message, cause);
	}

}

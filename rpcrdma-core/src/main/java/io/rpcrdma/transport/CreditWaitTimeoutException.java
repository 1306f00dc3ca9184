package io.rpcrdma.transport;

/**
 * No credit became free before the call's deadline (RFC 5666 §3.3): the responder's grant is
 * fully used by calls that have not been answered. The call was never sent.
 */
public class CreditWaitTimeoutException extends TransportException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message the grant and the wait
	 */
	public CreditWaitTimeoutException(String message) {
		super(message);
	}

}

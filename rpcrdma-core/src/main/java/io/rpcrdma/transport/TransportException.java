package io.rpcrdma.transport;

/**
 * Why an RPC could not be carried by the RPC-over-RDMA transport. Subclasses name the cause.
 */
public class TransportException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message what went wrong and what to do
	 */
	public TransportException(String message) {
		super(message);
	}

	/**
	 * @param message what went wrong and what to do
	 * @param cause the underlying failure
	 */
	public TransportException(String message, Throwable cause) {
		super(message, cause);
	}

}

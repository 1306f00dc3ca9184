package io.rpcrdma.demo.cli;

/**
 * The store could not be connected to.
 */
public class StoreUnreachableException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message where and why, and what to check
	 * @param cause the transport's failure
	 */
	public StoreUnreachableException(String message, Throwable cause) {
		super(message, cause);
	}

}

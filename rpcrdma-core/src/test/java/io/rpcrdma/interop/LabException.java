package io.rpcrdma.interop;

/**
 * The interop lab's guest could not be built, booted or driven.
 */
public class LabException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates the exception.
	 * @param message what failed and what to look at
	 */
	public LabException(String message) {
		super(message);
	}

	/**
	 * Creates the exception.
	 * @param message what failed and what to look at
	 * @param cause the underlying failure
	 */
	public LabException(String message, Throwable cause) {
		super(message, cause);
	}

}

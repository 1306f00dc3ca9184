package io.rpcrdma.verbs;

/**
 * Base type of the errors the provider SPI reports. Unchecked, because most are
 * programming or configuration errors the caller cannot handle locally.
 */
public class RdmaException extends RuntimeException {

	/**
	 * Creates an exception with a message that says what was wrong and what to do.
	 * @param message the detail message
	 */
	public RdmaException(String message) {
		super(message);
	}

	/**
	 * Creates an exception with a message and a cause.
	 * @param message the detail message
	 * @param cause the underlying cause
	 */
	public RdmaException(String message, Throwable cause) {
		super(message, cause);
	}

}

package io.rpcrdma.server;

/**
 * Thrown by a {@link ProcedureHandler} whose arguments cannot be decoded or are invalid for
 * the procedure; the dispatcher answers MSG_ACCEPTED GARBAGE_ARGS (RFC 5531 §9) and does not
 * log it as a server fault.
 */
public class GarbageArgumentsException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message what is wrong with the arguments
	 */
	public GarbageArgumentsException(String message) {
		super(message);
	}

	/**
	 * @param message what is wrong with the arguments
	 * @param cause the decoding failure
	 */
	public GarbageArgumentsException(String message, Throwable cause) {
		super(message, cause);
	}

}

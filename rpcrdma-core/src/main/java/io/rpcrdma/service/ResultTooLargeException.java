package io.rpcrdma.service;

/**
 * A service method's result did not fit in the reply the caller made room for: the inline
 * threshold, or the Reply chunk the client offered (RFC 8166 §3.5.4). Raised on the server and
 * rethrown on the client, where the message says which limit to raise or that the result
 * should be marked {@link Bulk} to travel in a Write chunk.
 */
public class ResultTooLargeException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message the sizes and what to do
	 */
	public ResultTooLargeException(String message) {
		super(message);
	}

}

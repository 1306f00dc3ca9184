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
	 * What to do, ending every message: the setting is named as users set it, the Spring Boot
	 * property first (docs/troubleshooting.md quotes this text).
	 */
	public static final String REMEDY = "mark the method @Bulk(maxBytes = ...) so the result travels in a Write "
			+ "chunk (any result over the client's max-reply-size, 64 KiB by default, needs it), or raise the client's "
			+ "rpcrdma.client.<name>.max-reply-size (ServiceClientOptions.maxReplySize without Spring Boot) so it "
			+ "offers a larger Reply chunk";

	/**
	 * @param message the sizes and what to do
	 */
	public ResultTooLargeException(String message) {
		super(message);
	}

}

package io.rpcrdma.discovery.rpcbind;

/**
 * Base type of what the rpcbind client reports; subtypes say whether rpcbind could not be
 * reached, answered too late, answered something malformed, refused the call, or refused a
 * registration.
 */
public abstract class RpcbindException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	protected RpcbindException(String message, Throwable cause) {
		super(message, cause);
	}

}

package io.rpcrdma.spring.boot.autoconfigure.rpcbind;

/**
 * The server started but could not be registered with rpcbind, so the application does not
 * start: a server that clients resolve through rpcbind would otherwise run unseen.
 */
public final class RpcbindRegistrationFailedException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	RpcbindRegistrationFailedException(String message, Throwable cause) {
		super(message, cause);
	}

}

package io.rpcrdma.service.e2e;

/**
 * An exception a client cannot rebuild: it has no {@code (String)} constructor, as a type
 * unknown on the client's class path would not.
 */
public class ServerOnlyException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public ServerOnlyException(int reason) {
		super("server-side reason " + reason);
	}

}

package io.rpcrdma.discovery.rpcbind;

/**
 * rpcbind answered FALSE to a SET (RFC 1833 §2.2.1): it already holds a mapping for that
 * program, version and netid at another address, or its access rules refuse the caller.
 */
public final class RpcbindRegistrationException extends RpcbindException {

	private static final long serialVersionUID = 1L;

	RpcbindRegistrationException(String message) {
		super(message, null);
	}

}

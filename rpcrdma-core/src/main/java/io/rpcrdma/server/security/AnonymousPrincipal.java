package io.rpcrdma.server.security;

/** The caller of an AUTH_NONE call (RFC 5531 §10.1): nobody in particular. */
public enum AnonymousPrincipal implements RpcPrincipal {

	/** The one anonymous caller. */
	INSTANCE;

	@Override
	public String getName() {
		return "anonymous";
	}

	@Override
	public SecurityFlavor flavor() {
		return SecurityFlavor.NONE;
	}

	@Override
	public boolean verified() {
		return false;
	}

	@Override
	public String toString() {
		return "anonymous (AUTH_NONE)";
	}

}

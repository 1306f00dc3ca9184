package io.rpcrdma.server.security;

import java.security.Principal;

/**
 * Who sent a call, as far as its credential tells: the principal a service sees through
 * {@link io.rpcrdma.server.ServerCall#principal()}. Only a flavor that {@link #verified()
 * proves} the caller's identity (RPCSEC_GSS) is to be trusted for access decisions; AUTH_SYS
 * is what the caller asserts (RFC 5531 Appendix A: "the client's identity is not verified").
 */
public sealed interface RpcPrincipal extends Principal permits AnonymousPrincipal, AuthSysPrincipal, GssPrincipal {

	/** @return the flavor the call carried */
	SecurityFlavor flavor();

	/** @return whether the server verified the identity, rather than taking the caller's word for it */
	boolean verified();

}

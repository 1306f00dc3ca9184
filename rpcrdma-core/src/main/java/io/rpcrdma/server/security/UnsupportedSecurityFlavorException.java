package io.rpcrdma.server.security;

import java.util.Set;

/**
 * A policy names a flavor this server cannot check: {@code krb5}, {@code krb5i} or
 * {@code krb5p} without an {@link RpcSecGssServer} (the server's Kerberos identity). The policy
 * is refused when it is built, rather than every such call being refused at run time.
 */
public class UnsupportedSecurityFlavorException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param flavors the flavors that cannot be checked
	 * @param where which rule named them
	 */
	public UnsupportedSecurityFlavorException(Set<SecurityFlavor> flavors, String where) {
		super("Security flavor(s) " + flavors + " named " + where + " cannot be checked by this server: RPCSEC_GSS"
				+ " (krb5, krb5i, krb5p) needs the server's Kerberos identity; give the policy an RpcSecGssServer with"
				+ " the service's keytab (SecurityPolicy.Builder.rpcsecGss)");
	}

}

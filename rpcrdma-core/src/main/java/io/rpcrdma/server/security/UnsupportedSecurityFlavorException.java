package io.rpcrdma.server.security;

import java.util.Set;

/**
 * A policy names a flavor this server cannot check: {@code krb5} without an
 * {@link RpcSecGssServer} (the server's Kerberos identity), or {@code krb5i} and {@code krb5p},
 * not implemented yet. The policy is refused when it is built, rather than every such call
 * being refused at run time.
 */
public class UnsupportedSecurityFlavorException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param flavors the flavors that cannot be checked
	 * @param where which rule named them
	 */
	public UnsupportedSecurityFlavorException(Set<SecurityFlavor> flavors, String where) {
		super("Security flavor(s) " + flavors + " named " + where + " cannot be checked by this server: "
				+ (flavors.contains(SecurityFlavor.KRB5) && flavors.size() == 1
						? "krb5 needs the server's Kerberos identity; give the policy an RpcSecGssServer with the"
								+ " service's keytab (SecurityPolicy.Builder.rpcsecGss)"
						: "it checks none, sys and, with a Kerberos identity, krb5; RPCSEC_GSS integrity and privacy"
								+ " (krb5i, krb5p) are not available in this version"));
	}

}

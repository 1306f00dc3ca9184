package io.rpcrdma.server.security;

import java.util.Set;

/**
 * A policy names a flavor this version cannot check: RPCSEC_GSS (krb5, krb5i, krb5p) is not
 * implemented yet, so a policy that requires it is refused when it is built, rather than every
 * such call being refused at run time.
 */
public class UnsupportedSecurityFlavorException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param flavors the flavors that cannot be checked
	 * @param where which rule named them
	 */
	public UnsupportedSecurityFlavorException(Set<SecurityFlavor> flavors, String where) {
		super("Security flavor(s) " + flavors + " named " + where + " cannot be checked by this server yet: it checks"
				+ " none and sys; RPCSEC_GSS (krb5, krb5i, krb5p) is not available in this version");
	}

}

package io.rpcrdma.server.security;

import java.util.Objects;

/**
 * The caller of an RPCSEC_GSS call: the Kerberos principal its context was established for,
 * {@linkplain #verified() verified} by the KDC's ticket and the call's MIC (RFC 2203 §5.3.1).
 *
 * @param name the client's principal, e.g. {@code alice@EXAMPLE.COM}
 * @param flavor {@code krb5}, {@code krb5i} or {@code krb5p}: the service the call used
 */
public record GssPrincipal(String name, SecurityFlavor flavor) implements RpcPrincipal {

	/** Checks the parts. */
	public GssPrincipal {
		Objects.requireNonNull(name, "name");
		if (!Objects.requireNonNull(flavor, "flavor").authenticates()) {
			throw new IllegalArgumentException("an RPCSEC_GSS principal has flavor krb5, krb5i or krb5p, not " + flavor);
		}
	}

	@Override
	public String getName() {
		return this.name;
	}

	@Override
	public boolean verified() {
		return true;
	}

	@Override
	public String toString() {
		return this.name + " (RPCSEC_GSS " + this.flavor + ")";
	}

}

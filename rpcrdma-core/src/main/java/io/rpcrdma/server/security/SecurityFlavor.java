package io.rpcrdma.server.security;

import java.util.Locale;

import io.rpcrdma.oncrpc.AuthFlavor;

/**
 * The security a call carries, as a server's {@link SecurityPolicy} and a client's settings
 * name it: an RPC authentication flavor (RFC 5531 §8.2), and for RPCSEC_GSS (RFC 2203 §5.3.1)
 * also the service. The names are those of NFS's {@code sec=} option.
 */
public enum SecurityFlavor {

	/** AUTH_NONE (RFC 5531 §10.1): nobody in particular. */
	NONE("none", AuthFlavor.AUTH_NONE),

	/** AUTH_SYS (RFC 5531 Appendix A): uid and gids the caller asserts, verified by nobody. */
	SYS("sys", AuthFlavor.AUTH_SYS),

	/** RPCSEC_GSS with Kerberos V5, service {@code rpc_gss_svc_none}: authentication. */
	KRB5("krb5", AuthFlavor.RPCSEC_GSS),

	/** RPCSEC_GSS with Kerberos V5, service {@code rpc_gss_svc_integrity}: authentication and a MIC over the body. */
	KRB5I("krb5i", AuthFlavor.RPCSEC_GSS),

	/** RPCSEC_GSS with Kerberos V5, service {@code rpc_gss_svc_privacy}: authentication and a wrapped body. */
	KRB5P("krb5p", AuthFlavor.RPCSEC_GSS);

	private final String configName;

	private final int authFlavor;

	SecurityFlavor(String configName, int authFlavor) {
		this.configName = configName;
		this.authFlavor = authFlavor;
	}

	/** @return the name in settings: {@code none}, {@code sys}, {@code krb5}, {@code krb5i} or {@code krb5p} */
	public String configName() {
		return this.configName;
	}

	/** @return the RPC authentication flavor number on the wire */
	public int authFlavor() {
		return this.authFlavor;
	}

	/** @return whether a call of this flavor proves who sent it */
	public boolean authenticates() {
		return this.authFlavor == AuthFlavor.RPCSEC_GSS;
	}

	/**
	 * The flavor a setting names.
	 * @param name {@code none}, {@code sys}, {@code krb5}, {@code krb5i} or {@code krb5p}, in any case
	 * @return the flavor
	 * @throws IllegalArgumentException naming the accepted values
	 */
	public static SecurityFlavor of(String name) {
		String wanted = name.trim().toLowerCase(Locale.ROOT);
		for (SecurityFlavor flavor : values()) {
			if (flavor.configName.equals(wanted) || flavor.name().toLowerCase(Locale.ROOT).equals(wanted)) {
				return flavor;
			}
		}
		throw new IllegalArgumentException("Unknown security flavor '" + name + "': use none, sys, krb5, krb5i or krb5p");
	}

	@Override
	public String toString() {
		return this.configName;
	}

}

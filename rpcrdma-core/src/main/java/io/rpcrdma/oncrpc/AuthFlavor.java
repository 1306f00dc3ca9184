package io.rpcrdma.oncrpc;

/**
 * Authentication flavor numbers ({@code auth_flavor}, RFC 5531 §8.2 and the IANA "RPC
 * Authentication Flavor Numbers" registry).
 * <p>
 * Flavors are plain {@code int}s rather than an enum because the set is open: a receiver
 * must carry flavors it does not know (as {@link RawAuth}) and let the authentication layer
 * reject them with {@code AUTH_REJECTEDCRED} or {@code AUTH_TOOWEAK}.
 */
public final class AuthFlavor {

	/** No authentication (RFC 5531 §10.1), also known as AUTH_NULL. */
	public static final int AUTH_NONE = 0;

	/** UNIX-style credentials (RFC 5531 Appendix A), also known as AUTH_UNIX. */
	public static final int AUTH_SYS = 1;

	/** Short-hand handle a server may return instead of AUTH_SYS credentials. */
	public static final int AUTH_SHORT = 2;

	/** Diffie-Hellman authentication (RFC 2695), also known as AUTH_DES. */
	public static final int AUTH_DH = 3;

	/** GSS-API based security (RFC 2203, RFC 5403). */
	public static final int RPCSEC_GSS = 6;

	private AuthFlavor() {
	}

	/**
	 * Returns the registry name of a flavor, for messages and logs.
	 * @param flavor a flavor number
	 * @return its name, or the number itself when unknown
	 */
	public static String name(int flavor) {
		return switch (flavor) {
			case AUTH_NONE -> "AUTH_NONE";
			case AUTH_SYS -> "AUTH_SYS";
			case AUTH_SHORT -> "AUTH_SHORT";
			case AUTH_DH -> "AUTH_DH";
			case RPCSEC_GSS -> "RPCSEC_GSS";
			default -> Integer.toUnsignedString(flavor);
		};
	}

}

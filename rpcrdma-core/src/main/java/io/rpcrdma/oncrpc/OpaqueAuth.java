package io.rpcrdma.oncrpc;

/**
 * A credential or verifier: the {@code opaque_auth} of RFC 5531 §8.2, a flavor and a body of
 * at most {@value #MAX_BODY_LENGTH} bytes.
 * <p>
 * The flavors this layer interprets have their own types ({@link AuthNone}, {@link AuthSys});
 * every other flavor is carried unchanged as {@link RawAuth} for the authentication layer
 * above.
 */
public sealed interface OpaqueAuth permits AuthNone, AuthSys, RawAuth {

	/** RFC 5531 §8.2: {@code opaque body<400>}. */
	int MAX_BODY_LENGTH = 400;

	/**
	 * @return the {@link AuthFlavor flavor} number
	 */
	int flavor();

	/**
	 * @return the AUTH_NONE credential or verifier, a shared instance
	 */
	static OpaqueAuth none() {
		return AuthNone.INSTANCE;
	}

}

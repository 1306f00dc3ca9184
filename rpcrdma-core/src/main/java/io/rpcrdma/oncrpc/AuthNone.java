package io.rpcrdma.oncrpc;

/**
 * The AUTH_NONE flavor (RFC 5531 §10.1): no identity, an empty body.
 * <p>
 * RFC 5531 §10.1 leaves the body of AUTH_NONE undefined and only recommends a length of
 * zero, so the decoder accepts (and discards) a non-empty body; the encoder always writes a
 * zero length. Use the shared {@link #INSTANCE}.
 */
public record AuthNone() implements OpaqueAuth {

	/** The one instance there is any need for. */
	public static final AuthNone INSTANCE = new AuthNone();

	@Override
	public int flavor() {
		return AuthFlavor.AUTH_NONE;
	}

}

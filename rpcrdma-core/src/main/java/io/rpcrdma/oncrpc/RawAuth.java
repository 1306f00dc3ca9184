package io.rpcrdma.oncrpc;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A credential or verifier of a flavor this layer does not interpret (for example
 * RPCSEC_GSS or AUTH_SHORT), kept as its flavor and raw body so an authentication layer above
 * can interpret it (RFC 5531 §8.2).
 * <p>
 * The body is copied on construction and on access, so a {@code RawAuth} never shares memory
 * with a receive buffer that will be reused; bodies are at most
 * {@value OpaqueAuth#MAX_BODY_LENGTH} bytes, so the copy is cheap.
 *
 * @param flavor the flavor number, neither AUTH_NONE nor AUTH_SYS (those have their own
 * types, so that every message has exactly one representation)
 * @param body the body, at most 400 bytes
 */
public record RawAuth(int flavor, byte[] body) implements OpaqueAuth {

	public RawAuth {
		if (flavor == AuthFlavor.AUTH_NONE || flavor == AuthFlavor.AUTH_SYS) {
			throw new IllegalArgumentException(
					"use AuthNone or AuthSys for flavor " + AuthFlavor.name(flavor) + ", not RawAuth");
		}
		if (body.length > MAX_BODY_LENGTH) {
			throw new IllegalArgumentException("opaque_auth body of " + body.length
					+ " bytes exceeds the " + MAX_BODY_LENGTH + " bytes RFC 5531 §8.2 allows");
		}
		body = body.clone();
	}

	/**
	 * @return a copy of the body
	 */
	@Override
	public byte[] body() {
		return this.body.clone();
	}

	/** A read-only view of the body for the encoder, without a copy. */
	ByteBuffer bodyView() {
		return ByteBuffer.wrap(this.body).asReadOnlyBuffer();
	}

	/**
	 * @return the length of the body in bytes
	 */
	public int bodyLength() {
		return this.body.length;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof RawAuth that && this.flavor == that.flavor && Arrays.equals(this.body, that.body);
	}

	@Override
	public int hashCode() {
		return 31 * this.flavor + Arrays.hashCode(this.body);
	}

	@Override
	public String toString() {
		return "RawAuth[flavor=" + AuthFlavor.name(this.flavor) + ", body=" + HexFormat.of().formatHex(this.body)
				+ "]";
	}

}

package io.rpcrdma.service.codec;

import io.rpcrdma.xdr.Xdr;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * Encodes and decodes one Java type as XDR (RFC 4506). Codecs are built once per type by a
 * {@link CodecRegistry} and are immutable and thread-safe; a decoder bounds every count,
 * length and nesting depth it reads by the registry's {@link CodecLimits} before allocating.
 *
 * @param <T> the Java type
 */
public interface XdrCodec<T> {

	/**
	 * Writes {@code value}.
	 * @param value the value; {@code null} only where the codec is optional
	 * @param out the encoder
	 * @throws io.rpcrdma.xdr.XdrInvalidValueException if the value cannot be represented
	 * (a {@code null} where XDR has no optional-data, a string that is not valid UTF-16)
	 * @throws io.rpcrdma.xdr.XdrOverflowException if the encoder's buffer is too small
	 */
	void encode(T value, XdrEncoder out);

	/**
	 * Reads a value.
	 * @param in the decoder
	 * @return the value
	 * @throws io.rpcrdma.xdr.XdrException (a subtype) when the data is truncated, over a
	 * limit or invalid
	 */
	T decode(XdrDecoder in);

	/**
	 * @param value a value this codec can encode
	 * @return exactly how many bytes {@link #encode} writes for it
	 */
	int encodedSize(T value);

	/**
	 * The fewest bytes any value of this type takes, at least 4 (RFC 4506 §3); decoders of
	 * arrays use it to reject counts the remaining data cannot hold before allocating.
	 * @return the minimum encoded size
	 */
	default int minEncodedSize() {
		return Xdr.UNIT;
	}

	/**
	 * Whether values of this type are opaque bulk data that the transport may place directly
	 * into memory (RFC 8166 §6.1 DDP-eligibility).
	 * @return {@code true} for opaque data
	 */
	default boolean ddpEligible() {
		return false;
	}

	/**
	 * Describes the XDR type this codec writes, for {@link io.rpcrdma.service.xdrlang.XdrLanguageWriter}.
	 * Codecs from an {@link XdrCodecProvider} should override this; the default says the
	 * shape is unknown and the language writer rejects it with a message naming the codec.
	 * @return the XDR shape
	 */
	default XdrShape shape() {
		return new XdrShape.Undescribed(getClass().getName());
	}

}

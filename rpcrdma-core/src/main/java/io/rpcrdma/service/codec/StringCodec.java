package io.rpcrdma.service.codec;

import io.rpcrdma.xdr.Xdr;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrInvalidValueException;

/**
 * {@link String} as an XDR {@code string} (RFC 4506 §4.11) in UTF-8, at most
 * {@code maxBytes} bytes on decoding and on encoding.
 */
final class StringCodec implements XdrCodec<String> {

	private final int maxBytes;

	StringCodec(int maxBytes) {
		this.maxBytes = maxBytes;
	}

	@Override
	public void encode(String value, XdrEncoder out) {
		Nulls.require(value, "string");
		int length = utf8Length(value);
		if (length > this.maxBytes) {
			throw new XdrInvalidValueException("string of " + length + " UTF-8 bytes is longer than the limit of " + this.maxBytes
					+ "; the peer would reject it");
		}
		out.writeString(value);
	}

	@Override
	public String decode(XdrDecoder in) {
		return in.readString(this.maxBytes);
	}

	@Override
	public int encodedSize(String value) {
		return Xdr.UNIT + (int) Xdr.pad(utf8Length(Nulls.require(value, "string")));
	}

	@Override
	public XdrShape shape() {
		return new XdrShape.StringOf(Integer.MAX_VALUE);
	}

	@Override
	public String toString() {
		return "string<" + this.maxBytes + ">";
	}

	/** Counts UTF-8 bytes without encoding; an unpaired surrogate counts as the encoder will reject it. */
	static int utf8Length(String value) {
		int bytes = 0;
		int length = value.length();
		for (int i = 0; i < length; i++) {
			char c = value.charAt(i);
			if (c < 0x80) {
				bytes += 1;
			}
			else if (c < 0x800) {
				bytes += 2;
			}
			else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(value.charAt(i + 1))) {
				bytes += 4;
				i++;
			}
			else {
				bytes += 3;
			}
		}
		return bytes;
	}

}

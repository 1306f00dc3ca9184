package io.rpcrdma.service.codec;

import io.rpcrdma.xdr.Xdr;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * A nullable value as XDR optional-data {@code T *} (RFC 4506 §4.19): {@code FALSE} for
 * {@code null}, else {@code TRUE} followed by the value.
 *
 * @param <T> the value type
 */
final class OptionalDataCodec<T> implements XdrCodec<T> {

	private final XdrCodec<T> element;

	OptionalDataCodec(XdrCodec<T> element) {
		this.element = element;
	}

	@Override
	public void encode(T value, XdrEncoder out) {
		if (value == null) {
			out.writeBoolean(false);
		}
		else {
			out.writeBoolean(true);
			this.element.encode(value, out);
		}
	}

	@Override
	public T decode(XdrDecoder in) {
		return in.readBoolean() ? this.element.decode(in) : null;
	}

	@Override
	public int encodedSize(T value) {
		return (value != null) ? Xdr.UNIT + this.element.encodedSize(value) : Xdr.UNIT;
	}

	@Override
	public XdrShape shape() {
		return new XdrShape.OptionalOf(this.element);
	}

	XdrCodec<T> element() {
		return this.element;
	}

	@Override
	public String toString() {
		return this.element + " *";
	}

}

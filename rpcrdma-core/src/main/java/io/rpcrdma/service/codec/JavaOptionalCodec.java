package io.rpcrdma.service.codec;

import java.util.Optional;

import io.rpcrdma.xdr.Xdr;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * {@link Optional} as XDR optional-data {@code T *} (RFC 4506 §4.19). A {@code null}
 * Optional is encoded as empty, since that is what the sender meant.
 *
 * @param <T> the element type
 */
final class JavaOptionalCodec<T> implements XdrCodec<Optional<T>> {

	private final XdrCodec<T> element;

	JavaOptionalCodec(XdrCodec<T> element) {
		this.element = element;
	}

	@Override
	public void encode(Optional<T> value, XdrEncoder out) {
		if (value == null || value.isEmpty()) {
			out.writeBoolean(false);
		}
		else {
			out.writeBoolean(true);
			this.element.encode(value.get(), out);
		}
	}

	@Override
	public Optional<T> decode(XdrDecoder in) {
		return in.readBoolean() ? Optional.of(this.element.decode(in)) : Optional.empty();
	}

	@Override
	public int encodedSize(Optional<T> value) {
		return (value == null || value.isEmpty()) ? Xdr.UNIT : Xdr.UNIT + this.element.encodedSize(value.get());
	}

	@Override
	public XdrShape shape() {
		return new XdrShape.OptionalOf(this.element);
	}

	@Override
	public String toString() {
		return "Optional<" + this.element + ">";
	}

}

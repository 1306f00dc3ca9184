package io.rpcrdma.service.codec;

import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * XDR {@code void} (RFC 4506 §4.16): the result of a procedure declared {@code void} or
 * returning {@code CompletableFuture<Void>}; nothing on the wire.
 */
public final class VoidCodec implements XdrCodec<Void> {

	/** The one instance. */
	public static final VoidCodec INSTANCE = new VoidCodec();

	private VoidCodec() {
	}

	@Override
	public void encode(Void value, XdrEncoder out) {
	}

	@Override
	public Void decode(XdrDecoder in) {
		return null;
	}

	@Override
	public int encodedSize(Void value) {
		return 0;
	}

	@Override
	public XdrShape shape() {
		return new XdrShape.Void();
	}

	@Override
	public String toString() {
		return "void";
	}

}

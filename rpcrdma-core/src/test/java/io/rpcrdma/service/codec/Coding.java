package io.rpcrdma.service.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;

import io.rpcrdma.xdr.Hex;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/** Encodes into a buffer of exactly the codec's stated size, and decodes checking every byte is consumed. */
final class Coding {

	private Coding() {
	}

	static <T> byte[] encode(XdrCodec<T> codec, T value) {
		int size = codec.encodedSize(value);
		XdrEncoder encoder = new XdrEncoder(ByteBuffer.allocate(size));
		codec.encode(value, encoder);
		assertThat(encoder.remaining()).as("encodedSize(%s) is exact", value).isZero();
		return Hex.bytes(encoder.buffer().flip());
	}

	static <T> T decode(XdrCodec<T> codec, byte[] wire) {
		XdrDecoder decoder = new XdrDecoder(ByteBuffer.wrap(wire));
		T value = codec.decode(decoder);
		assertThat(decoder.remaining()).as("bytes left after decoding").isZero();
		return value;
	}

	static <T> T decodeDirect(XdrCodec<T> codec, byte[] wire) {
		ByteBuffer direct = ByteBuffer.allocateDirect(wire.length).put(wire).flip();
		XdrDecoder decoder = new XdrDecoder(direct);
		T value = codec.decode(decoder);
		assertThat(decoder.remaining()).as("bytes left after decoding").isZero();
		return value;
	}

}

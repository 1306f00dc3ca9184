package io.rpcrdma.oncrpc;

import static io.rpcrdma.xdr.Hex.hex;
import static io.rpcrdma.xdr.Hex.units;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;

import io.rpcrdma.xdr.BufferKind;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * Checks a message header against its annotated-hex vector in both directions, with
 * procedure arguments or results ({@link #BODY}) following the header on the wire as they
 * would in a real message.
 */
final class RpcWire {

	/** Stands for the procedure arguments or results, which this layer never touches. */
	static final int BODY = 0xcafebabe;

	private RpcWire() {
	}

	/**
	 * Encodes {@code message} (if the buffer kind is writable) and compares the bytes with the
	 * vector; decodes the vector and compares the value with {@code message}; checks the
	 * decoder stops exactly at the end of the header, where the body begins.
	 */
	static void assertWire(BufferKind kind, RpcMessage message, String annotatedHex) {
		byte[] header = hex(annotatedHex);
		assertThat(RpcMessageCodec.encodedSize(message)).as("encodedSize").isEqualTo(header.length);

		if (kind.writable()) {
			ByteBuffer buffer = kind.allocate(header.length + 4);
			XdrEncoder encoder = new XdrEncoder(buffer);
			RpcMessageCodec.encode(message, encoder);
			assertThat(encoder.position()).as("header bytes written").isEqualTo(header.length);
			encoder.writeInt(BODY);
			assertThat(units(buffer.flip())).as("encoded").isEqualTo(units(withBody(header)));
		}

		XdrDecoder decoder = new XdrDecoder(kind.wrap(withBody(header)));
		assertThat(RpcMessageCodec.decode(decoder)).as("decoded").isEqualTo(message);
		assertThat(decoder.position()).as("decoder stops at the body").isEqualTo(header.length);
		assertThat(decoder.readInt()).isEqualTo(BODY);

		XdrDecoder typed = new XdrDecoder(kind.wrap(withBody(header)));
		RpcMessage again = (message instanceof RpcCall) ? RpcMessageCodec.decodeCall(typed)
				: RpcMessageCodec.decodeReply(typed);
		assertThat(again).isEqualTo(message);
		assertThat(typed.position()).isEqualTo(header.length);
	}

	static byte[] withBody(byte[] header) {
		return ByteBuffer.allocate(header.length + 4).put(header).putInt(BODY).array();
	}

	static XdrDecoder decoder(BufferKind kind, String annotatedHex) {
		return new XdrDecoder(kind.wrap(hex(annotatedHex)));
	}

}

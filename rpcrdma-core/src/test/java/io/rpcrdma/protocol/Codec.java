package io.rpcrdma.protocol;

import io.rpcrdma.xdr.Hex;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;

import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/** Test shorthands around {@link TransportHeaderEncoder} and {@link TransportHeaderDecoder}. */
final class Codec {

	static final TransportHeaderDecoder DECODER = new TransportHeaderDecoder();

	private Codec() {
	}

	/** Encodes into a buffer of exactly {@link TransportHeaderEncoder#encodedLength} bytes and checks it filled up. */
	static byte[] encode(TransportHeader header) {
		int length = TransportHeaderEncoder.encodedLength(header);
		ByteBuffer buffer = ByteBuffer.allocate(length);
		TransportHeaderEncoder.encode(header, new XdrEncoder(buffer));
		assertThat(buffer.position()).as("bytes written vs encodedLength").isEqualTo(length);
		return buffer.array();
	}

	static HeaderDecodeResult decode(byte[] message) {
		return DECODER.decode(new XdrDecoder(ByteBuffer.wrap(message)));
	}

	/** Decodes with the default decoder and expects a valid header followed by {@code payloadLength} bytes. */
	static TransportHeader decodeValid(byte[] message, int payloadLength) {
		HeaderDecodeResult result = decode(message);
		assertThat(result).isInstanceOf(HeaderDecodeResult.Valid.class);
		HeaderDecodeResult.Valid valid = (HeaderDecodeResult.Valid) result;
		assertThat(valid.payloadLength()).as("payload length").isEqualTo(payloadLength);
		assertThat(valid.payloadOffset()).as("payload offset").isEqualTo(message.length - payloadLength);
		return valid.header();
	}

	/** Decodes and expects a malformed result with {@code fault}. */
	static HeaderDecodeResult.Malformed decodeMalformed(TransportHeaderDecoder decoder, byte[] message, HeaderFault fault) {
		HeaderDecodeResult result = decoder.decode(ByteBuffer.wrap(message));
		assertThat(result).isInstanceOf(HeaderDecodeResult.Malformed.class);
		HeaderDecodeResult.Malformed malformed = (HeaderDecodeResult.Malformed) result;
		assertThat(malformed.fault()).as(malformed.detail()).isEqualTo(fault);
		return malformed;
	}

	static HeaderDecodeResult.Malformed decodeMalformed(byte[] message, HeaderFault fault) {
		return decodeMalformed(DECODER, message, fault);
	}

	/** Asserts two byte arrays are equal, showing XDR words on failure. */
	static void assertBytes(byte[] actual, byte[] expected) {
		assertThat(Hex.words(actual)).isEqualTo(Hex.words(expected));
	}

}

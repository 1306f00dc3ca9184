package io.rpcrdma.verbs.siw.wire;

import java.nio.ByteBuffer;
import java.util.HexFormat;

/**
 * Test vectors written as annotated hex: one field per line, {@code //} comments and all
 * whitespace ignored, so a vector reads like the RFC's field diagram.
 */
final class AnnotatedHex {

	private AnnotatedHex() {
	}

	static byte[] bytes(String annotated) {
		String hex = annotated.replaceAll("//[^\n]*", "").replaceAll("\\s+", "");
		return HexFormat.of().parseHex(hex);
	}

	static ByteBuffer buffer(String annotated) {
		return ByteBuffer.wrap(bytes(annotated));
	}

	static String hex(ByteBuffer buffer) {
		byte[] bytes = new byte[buffer.remaining()];
		buffer.duplicate().get(bytes);
		return HexFormat.ofDelimiter(" ").formatHex(bytes);
	}

	static String hex(byte[] bytes) {
		return HexFormat.ofDelimiter(" ").formatHex(bytes);
	}

}

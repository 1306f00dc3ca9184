package io.rpcrdma.xdr;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Annotated hex for byte-exact test vectors: {@code hex("00000001 /* int 1 *&#47; FF")}.
 * C-style comments ({@code /* *&#47;} and {@code //} to the end of the line) and all
 * whitespace are removed before the digits are parsed, so a vector can be written field by
 * field with the RFC's names beside the bytes. Shared by every codec test in the project.
 */
public final class Hex {

	private static final Pattern COMMENTS = Pattern.compile("/\\*.*?\\*/|//[^\n]*", Pattern.DOTALL);

	private static final Pattern WHITESPACE = Pattern.compile("\\s+");

	private Hex() {
	}

	/**
	 * Parses annotated hex.
	 * @param annotated hex digits, whitespace and comments
	 * @return the bytes
	 */
	public static byte[] hex(String annotated) {
		String digits = WHITESPACE.matcher(COMMENTS.matcher(annotated).replaceAll("")).replaceAll("");
		if (digits.contains("/*") || digits.contains("*/")) {
			throw new IllegalArgumentException("unbalanced comment in test vector: " + annotated);
		}
		return HexFormat.of().parseHex(digits);
	}

	/**
	 * Formats bytes as hex grouped in four-byte XDR units, for readable assertion failures.
	 * @param bytes the bytes
	 * @return e.g. {@code "00000001 0000002a"}
	 */
	public static String units(byte[] bytes) {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < bytes.length; i++) {
			if (i > 0 && i % 4 == 0) {
				text.append(' ');
			}
			text.append(String.format("%02x", bytes[i]));
		}
		return text.toString();
	}

	/**
	 * Same as {@link #units(byte[])}: bytes as hex grouped in four-byte XDR words.
	 * @param bytes the bytes
	 * @return the hex text
	 */
	public static String words(byte[] bytes) {
		return units(bytes);
	}

	/**
	 * Same as {@link #units(ByteBuffer)}.
	 * @param buffer the buffer
	 * @return the hex text
	 */
	public static String words(ByteBuffer buffer) {
		return units(buffer);
	}

	/**
	 * Parses annotated hex into a heap buffer.
	 * @param annotated hex digits, whitespace and comments
	 * @return a buffer wrapping the bytes
	 */
	public static ByteBuffer buffer(String annotated) {
		return ByteBuffer.wrap(hex(annotated));
	}

	/**
	 * Formats bytes as hex with a space between bytes, for byte-oriented (non-XDR) formats
	 * such as iWARP headers.
	 * @param bytes the bytes
	 * @return e.g. {@code "02 07 00 00"}
	 */
	public static String spaced(byte[] bytes) {
		return HexFormat.ofDelimiter(" ").formatHex(bytes);
	}

	/**
	 * Formats the bytes between a buffer's position and limit, space-separated, without
	 * moving them.
	 * @param buffer the buffer
	 * @return e.g. {@code "02 07 00 00"}
	 */
	public static String spaced(ByteBuffer buffer) {
		return spaced(bytes(buffer));
	}

	/**
	 * Concatenates byte arrays.
	 * @param parts the arrays
	 * @return one array holding all of them in order
	 */
	public static byte[] concat(byte[]... parts) {
		int length = 0;
		for (byte[] part : parts) {
			length += part.length;
		}
		ByteBuffer all = ByteBuffer.allocate(length);
		for (byte[] part : parts) {
			all.put(part);
		}
		return all.array();
	}

	/**
	 * Formats the bytes between a buffer's position and limit without moving them.
	 * @param buffer the buffer
	 * @return hex grouped in four-byte units
	 */
	public static String units(ByteBuffer buffer) {
		return units(bytes(buffer));
	}

	/**
	 * Copies the bytes between a buffer's position and limit without moving them.
	 * @param buffer the buffer
	 * @return the bytes
	 */
	public static byte[] bytes(ByteBuffer buffer) {
		byte[] bytes = new byte[buffer.remaining()];
		buffer.duplicate().get(bytes);
		return bytes;
	}

}

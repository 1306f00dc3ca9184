package io.rpcrdma.protocol;

import java.nio.ByteBuffer;

/**
 * Test vectors written as annotated hex: whitespace is ignored and {@code //} starts a comment,
 * so each XDR field can sit on its own line with its name.
 */
public final class Hex {

	private Hex() {
	}

	/**
	 * @param annotated hex digits, whitespace and {@code //} comments
	 * @return the bytes
	 */
	public static byte[] hex(String annotated) {
		StringBuilder digits = new StringBuilder();
		for (String line : annotated.split("\n", -1)) {
			int comment = line.indexOf("//");
			String code = (comment >= 0) ? line.substring(0, comment) : line;
			for (int i = 0; i < code.length(); i++) {
				char c = code.charAt(i);
				if (!Character.isWhitespace(c)) {
					if (Character.digit(c, 16) < 0) {
						throw new IllegalArgumentException("Not a hex digit: '" + c + "' in line: " + line);
					}
					digits.append(c);
				}
			}
		}
		if (digits.length() % 2 != 0) {
			throw new IllegalArgumentException("Odd number of hex digits: " + digits.length());
		}
		byte[] bytes = new byte[digits.length() / 2];
		for (int i = 0; i < bytes.length; i++) {
			bytes[i] = (byte) Integer.parseInt(digits.substring(2 * i, 2 * i + 2), 16);
		}
		return bytes;
	}

	/**
	 * Formats bytes as XDR words, eight per line, so that failing comparisons show a readable
	 * difference.
	 * @param bytes the bytes
	 * @return the hex text
	 */
	public static String words(byte[] bytes) {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < bytes.length; i++) {
			if (i > 0) {
				text.append((i % 32 == 0) ? "\n" : (i % 4 == 0) ? " " : "");
			}
			text.append(Character.forDigit((bytes[i] >> 4) & 0xF, 16)).append(Character.forDigit(bytes[i] & 0xF, 16));
		}
		return text.toString();
	}

	/** Formats the remaining bytes of a buffer, without moving it. */
	public static String words(ByteBuffer buffer) {
		byte[] bytes = new byte[buffer.remaining()];
		buffer.duplicate().get(bytes);
		return words(bytes);
	}

	/** Concatenates byte arrays. */
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

}

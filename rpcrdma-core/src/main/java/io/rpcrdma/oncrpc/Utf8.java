package io.rpcrdma.oncrpc;

/**
 * UTF-8 length arithmetic, so header sizes can be computed without encoding strings twice.
 */
final class Utf8 {

	private Utf8() {
	}

	/**
	 * Returns the number of bytes {@code value} takes in UTF-8.
	 * @param value a string
	 * @return its UTF-8 length
	 * @throws IllegalArgumentException if {@code value} holds an unpaired surrogate, which
	 * UTF-8 cannot encode
	 */
	static int encodedLength(String value) {
		int length = 0;
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c < 0x80) {
				length += 1;
			}
			else if (c < 0x800) {
				length += 2;
			}
			else if (Character.isHighSurrogate(c) && i + 1 < value.length()
					&& Character.isLowSurrogate(value.charAt(i + 1))) {
				length += 4;
				i++;
			}
			else if (Character.isSurrogate(c)) {
				throw new IllegalArgumentException("unpaired surrogate at index " + i + " cannot be encoded as UTF-8");
			}
			else {
				length += 3;
			}
		}
		return length;
	}

}

package io.rpcrdma.benchmarks.compare;

import java.nio.ByteBuffer;

/**
 * Payload bytes every contender sends: the same non-zero pattern, built once.
 */
final class Payloads {

	private Payloads() {
	}

	/**
	 * @param length bytes
	 * @return a heap array of the pattern
	 */
	static byte[] filled(int length) {
		byte[] data = new byte[length];
		for (int i = 0; i < length; i++) {
			data[i] = (byte) (i * 31 + 7);
		}
		return data;
	}

	/**
	 * @param length bytes
	 * @return a direct buffer of the pattern, position 0, limit {@code length}
	 */
	static ByteBuffer directFilled(int length) {
		return ByteBuffer.allocateDirect(length).put(filled(length)).flip();
	}

}

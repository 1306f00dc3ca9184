package io.rpcrdma.interop;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The text an rping client puts in its source buffer for ping {@code n}: {@code "rdma-ping-n: "}
 * followed by a rotating run of the letters 'A' to 'z', NUL-terminated in the buffer's last
 * byte (rping(1): "-v display ping data"). The server echoes it up to and including the NUL.
 */
final class RpingData {

	private RpingData() {
	}

	/**
	 * Fills a buffer the way rping's client does.
	 * @param buffer the source buffer
	 * @param ping the ping's number
	 */
	static void fill(ByteBuffer buffer, int ping) {
		byte[] prefix = ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
		int size = buffer.capacity();
		int c = 'A' + (ping % ('z' - 'A' + 1));
		for (int i = 0; i < size; i++) {
			if (i < prefix.length) {
				buffer.put(i, prefix[i]);
			}
			else {
				buffer.put(i, (byte) c);
				c = (c == 'z') ? 'A' : c + 1;
			}
		}
		buffer.put(size - 1, (byte) 0);
	}

	/**
	 * The NUL-terminated text at the start of a buffer.
	 * @param buffer the buffer
	 * @return the text, without the NUL
	 */
	static String text(ByteBuffer buffer) {
		int end = 0;
		while (end < buffer.capacity() && buffer.get(end) != 0) {
			end++;
		}
		byte[] bytes = new byte[end];
		buffer.get(0, bytes);
		return new String(bytes, StandardCharsets.US_ASCII);
	}

}

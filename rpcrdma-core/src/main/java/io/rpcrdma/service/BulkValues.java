package io.rpcrdma.service;

import java.nio.ByteBuffer;

/**
 * The data length of a DDP-eligible value (RFC 8166 §6): what a Read or Write chunk carries for
 * it, without the XDR length word and padding.
 */
final class BulkValues {

	private BulkValues() {
	}

	/**
	 * @param value an argument or result
	 * @return its opaque data length, or -1 if it is not bulk data this layer can place
	 */
	static int length(Object value) {
		if (value instanceof byte[] bytes) {
			return bytes.length;
		}
		if (value instanceof ByteBuffer buffer) {
			return buffer.remaining();
		}
		if (value instanceof BulkData data) {
			return data.length();
		}
		return -1;
	}

	/**
	 * @param value an argument or result
	 * @return a view of its opaque data, or {@code null} if it is not bulk data this layer can
	 * place
	 */
	static ByteBuffer view(Object value) {
		if (value instanceof byte[] bytes) {
			return ByteBuffer.wrap(bytes);
		}
		if (value instanceof ByteBuffer buffer) {
			return buffer.duplicate();
		}
		if (value instanceof BulkData data) {
			return data.buffer();
		}
		return null;
	}

	/**
	 * Copies bulk data received in a reply into the result type, since the reply's memory goes
	 * back to the transport when the call completes.
	 * @param data the data
	 * @param type the declared result type
	 * @return a {@code byte[]}, heap {@link ByteBuffer} or {@link BulkData}
	 */
	static Object copyAs(ByteBuffer data, Class<?> type) {
		byte[] copy = new byte[data.remaining()];
		data.duplicate().get(copy);
		if (type == ByteBuffer.class) {
			return ByteBuffer.wrap(copy);
		}
		if (type == BulkData.class) {
			return BulkData.wrap(copy);
		}
		return copy;
	}

}

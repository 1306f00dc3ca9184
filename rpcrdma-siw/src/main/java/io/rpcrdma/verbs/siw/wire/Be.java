package io.rpcrdma.verbs.siw.wire;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Big-endian (network order) access to a caller's buffer without changing the buffer's own
 * byte order setting. iWARP headers are big-endian (RFC 5040, 5041, 5044); only the MPA CRC
 * trailer is not (see {@link Mpa#putCrc(ByteBuffer, int, int)}).
 */
final class Be {

	private Be() {
	}

	static int u8(ByteBuffer buffer, int index) {
		return buffer.get(index) & 0xFF;
	}

	static int u16(ByteBuffer buffer, int index) {
		short value = buffer.getShort(index);
		return (buffer.order() == ByteOrder.BIG_ENDIAN ? value : Short.reverseBytes(value)) & 0xFFFF;
	}

	static int i32(ByteBuffer buffer, int index) {
		int value = buffer.getInt(index);
		return buffer.order() == ByteOrder.BIG_ENDIAN ? value : Integer.reverseBytes(value);
	}

	static long i64(ByteBuffer buffer, int index) {
		long value = buffer.getLong(index);
		return buffer.order() == ByteOrder.BIG_ENDIAN ? value : Long.reverseBytes(value);
	}

	static void put16(ByteBuffer buffer, int value) {
		short v = (short) value;
		buffer.putShort(buffer.order() == ByteOrder.BIG_ENDIAN ? v : Short.reverseBytes(v));
	}

	static void put32(ByteBuffer buffer, int value) {
		buffer.putInt(buffer.order() == ByteOrder.BIG_ENDIAN ? value : Integer.reverseBytes(value));
	}

	static void put64(ByteBuffer buffer, long value) {
		buffer.putLong(buffer.order() == ByteOrder.BIG_ENDIAN ? value : Long.reverseBytes(value));
	}

}

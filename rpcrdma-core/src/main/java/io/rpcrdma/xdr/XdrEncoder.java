package io.rpcrdma.xdr;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Writes XDR (RFC 4506) into a {@link ByteBuffer}, heap or direct, starting at its position.
 * <p>
 * Big-endian is imposed on the buffer because XDR is big-endian (RFC 4506 §3). An encoder is
 * reusable: {@link #reset(ByteBuffer)} points it at another buffer without allocating. Every
 * write checks the remaining room first and throws {@link XdrOverflowException} instead of
 * writing a partial item.
 */
public final class XdrEncoder {

	private static final byte[] ZEROS = new byte[4];

	private ByteBuffer buffer;

	public XdrEncoder(ByteBuffer buffer) {
		reset(buffer);
	}

	/**
	 * Continues encoding into another buffer, from its position.
	 * @param buffer the target
	 * @return this encoder
	 */
	public XdrEncoder reset(ByteBuffer buffer) {
		this.buffer = buffer.order(ByteOrder.BIG_ENDIAN);
		return this;
	}

	/** @return the buffer being written */
	public ByteBuffer buffer() {
		return this.buffer;
	}

	/** @return the position of the next byte to write */
	public int position() {
		return this.buffer.position();
	}

	/** @return room left in the buffer */
	public int remaining() {
		return this.buffer.remaining();
	}

	/** RFC 4506 §4.1 integer. */
	public XdrEncoder writeInt(int value) {
		ensure("int", 4);
		this.buffer.putInt(value);
		return this;
	}

	/** RFC 4506 §4.2 unsigned integer, given as a long in [0, 2^32). */
	public XdrEncoder writeUnsignedInt(long value) {
		if (value < 0 || value > 0xFFFF_FFFFL) {
			throw new XdrInvalidValueException("unsigned int " + value + " is outside [0, 4294967295]");
		}
		return writeInt((int) value);
	}

	/** RFC 4506 §4.5 (unsigned) hyper integer; the bits are written as given. */
	public XdrEncoder writeHyper(long value) {
		ensure("hyper", 8);
		this.buffer.putLong(value);
		return this;
	}

	/** RFC 4506 §4.4 boolean. */
	public XdrEncoder writeBoolean(boolean value) {
		return writeInt(value ? 1 : 0);
	}

	/** RFC 4506 §4.6 single-precision float. */
	public XdrEncoder writeFloat(float value) {
		return writeInt(Float.floatToRawIntBits(value));
	}

	/** RFC 4506 §4.7 double-precision float. */
	public XdrEncoder writeDouble(double value) {
		return writeHyper(Double.doubleToRawLongBits(value));
	}

	/** RFC 4506 §4.9 fixed-length opaque: the bytes, then zero padding to four. */
	public XdrEncoder writeFixedOpaque(byte[] data) {
		return writeFixedOpaque(data, 0, data.length);
	}

	/** RFC 4506 §4.9 fixed-length opaque from part of an array. */
	public XdrEncoder writeFixedOpaque(byte[] data, int offset, int length) {
		Objects.checkFromIndexSize(offset, length, data.length);
		ensure("fixed opaque", Xdr.pad(length));
		this.buffer.put(data, offset, length);
		this.buffer.put(ZEROS, 0, Xdr.padding(length));
		return this;
	}

	/**
	 * RFC 4506 §4.9 fixed-length opaque from the remaining bytes of {@code data}; the source's
	 * position is not moved.
	 */
	public XdrEncoder writeFixedOpaque(ByteBuffer data) {
		int length = data.remaining();
		ensure("fixed opaque", Xdr.pad(length));
		this.buffer.put(data.duplicate());
		this.buffer.put(ZEROS, 0, Xdr.padding(length));
		return this;
	}

	/** RFC 4506 §4.10 variable-length opaque: length, bytes, padding. */
	public XdrEncoder writeOpaque(byte[] data) {
		ensure("variable opaque", 4 + Xdr.pad(data.length));
		this.buffer.putInt(data.length);
		return writeFixedOpaque(data);
	}

	/** RFC 4506 §4.10 variable-length opaque from the remaining bytes of {@code data}. */
	public XdrEncoder writeOpaque(ByteBuffer data) {
		ensure("variable opaque", 4 + Xdr.pad(data.remaining()));
		this.buffer.putInt(data.remaining());
		return writeFixedOpaque(data);
	}

	/**
	 * RFC 4506 §4.11 string, encoded as UTF-8.
	 * <p>
	 * A string that cannot be encoded (an unpaired surrogate) is rejected rather than
	 * silently written with a replacement character, so what the peer decodes is always what
	 * the caller gave.
	 * @param value the string
	 * @return this encoder
	 * @throws XdrInvalidValueException if {@code value} is not valid UTF-16
	 */
	public XdrEncoder writeString(String value) {
		int length = value.length();
		if (isAscii(value)) {
			// The common case (names, paths): one byte per char, no intermediate array.
			ensure("string", 4 + Xdr.pad(length));
			this.buffer.putInt(length);
			for (int i = 0; i < length; i++) {
				this.buffer.put((byte) value.charAt(i));
			}
			this.buffer.put(ZEROS, 0, Xdr.padding(length));
			return this;
		}
		ByteBuffer utf8;
		try {
			utf8 = StandardCharsets.UTF_8.newEncoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.encode(CharBuffer.wrap(value));
		}
		catch (CharacterCodingException ex) {
			throw new XdrInvalidValueException("string cannot be encoded as UTF-8 (unpaired surrogate?): " + ex.getMessage());
		}
		return writeOpaque(utf8);
	}

	/**
	 * Writes four bytes for a field whose value is known only later (for example a count),
	 * and returns where to {@link #patchInt(int, int) patch} it.
	 * @return the position of the reserved word
	 */
	public int reserveInt() {
		int at = position();
		writeInt(0);
		return at;
	}

	/** Writes {@code value} at an earlier {@link #reserveInt() reserved} position. */
	public XdrEncoder patchInt(int position, int value) {
		this.buffer.putInt(position, value);
		return this;
	}

	private static boolean isAscii(String value) {
		for (int i = 0; i < value.length(); i++) {
			if (value.charAt(i) >= 0x80) {
				return false;
			}
		}
		return true;
	}

	private void ensure(String what, long bytes) {
		if (bytes > this.buffer.remaining()) {
			throw new XdrOverflowException(what, bytes, this.buffer.remaining());
		}
	}

}

package io.rpcrdma.xdr;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads XDR (RFC 4506) from a {@link ByteBuffer}, heap or direct, from its position to its
 * limit.
 * <p>
 * Every read is bounds-checked against the bytes that remain, and every count or length the
 * data carries is checked against a caller-given limit <em>before</em> anything is allocated
 * from it, so a hostile sender cannot make the receiver allocate more than the receiver
 * allows. Opaque data is returned as zero-copy slices of the underlying buffer. A decoder
 * is reusable through {@link #reset(ByteBuffer)}.
 */
public final class XdrDecoder {

	private ByteBuffer buffer;

	private OpaquePadding padding;

	private int paddingBase;

	public XdrDecoder(ByteBuffer buffer) {
		reset(buffer);
	}

	/**
	 * Continues decoding from another buffer, between its position and limit.
	 * @param buffer the source
	 * @return this decoder
	 */
	public XdrDecoder reset(ByteBuffer buffer) {
		this.buffer = buffer.order(ByteOrder.BIG_ENDIAN);
		this.padding = null;
		return this;
	}

	/**
	 * Skips RFC 5666 §3.9 RDMA_MSGP padding before the data of counted opaques and strings
	 * from now on; the message is taken to start at the current position.
	 * @param padding the sender's rdma_align and rdma_thresh, or {@code null} for none
	 * @return this decoder
	 */
	public XdrDecoder withOpaquePadding(OpaquePadding padding) {
		this.padding = padding;
		this.paddingBase = this.buffer.position();
		return this;
	}

	/** @return the buffer being read */
	public ByteBuffer buffer() {
		return this.buffer;
	}

	/** @return the position of the next byte to read */
	public int position() {
		return this.buffer.position();
	}

	/** @return bytes left to read */
	public int remaining() {
		return this.buffer.remaining();
	}

	/** RFC 4506 §4.1 integer. */
	public int readInt() {
		ensure("int", 4);
		return this.buffer.getInt();
	}

	/** RFC 4506 §4.2 unsigned integer, returned as a long in [0, 2^32). */
	public long readUnsignedInt() {
		return readInt() & 0xFFFF_FFFFL;
	}

	/** RFC 4506 §4.5 (unsigned) hyper integer, as raw 64 bits. */
	public long readHyper() {
		ensure("hyper", 8);
		return this.buffer.getLong();
	}

	/** RFC 4506 §4.4 boolean: only 0 and 1 are valid. */
	public boolean readBoolean() {
		int value = readInt();
		if (value != 0 && value != 1) {
			throw new XdrInvalidValueException("XDR boolean must be 0 or 1 but was " + value);
		}
		return value == 1;
	}

	/** RFC 4506 §4.6 single-precision float. */
	public float readFloat() {
		return Float.intBitsToFloat(readInt());
	}

	/** RFC 4506 §4.7 double-precision float. */
	public double readDouble() {
		return Double.longBitsToDouble(readHyper());
	}

	/**
	 * RFC 4506 §4.9 fixed-length opaque of {@code length} bytes, as a zero-copy slice; the
	 * padding is skipped.
	 * <p>
	 * The padding bytes are not checked: RFC 4506 §4.9 has senders write zeros, and a
	 * receiver gains nothing by rejecting a peer that does not, so (like common ONC RPC
	 * implementations) this decoder ignores their value.
	 * @param length the declared length
	 * @return a slice of exactly {@code length} bytes sharing the decoder's memory; its
	 * position and limit are independent of the decoder's
	 */
	public ByteBuffer readFixedOpaque(int length) {
		if (length < 0) {
			throw new XdrInvalidValueException("fixed opaque length must not be negative: " + length);
		}
		ensure("fixed opaque", Xdr.pad(length));
		int start = this.buffer.position();
		ByteBuffer slice = this.buffer.slice(start, length);
		this.buffer.position(start + (int) Xdr.pad(length));
		return slice;
	}

	/**
	 * RFC 4506 §4.10 variable-length opaque of at most {@code maxLength} bytes, as a
	 * zero-copy slice.
	 * @param maxLength the largest length this receiver accepts
	 * @return a slice sharing the decoder's memory
	 */
	public ByteBuffer readOpaque(int maxLength) {
		int length = readLength("variable opaque length", maxLength);
		if (this.padding != null) {
			long pad = this.padding.padding(this.buffer.position() - this.paddingBase, length);
			if (pad > 0) {
				ensure("RDMA_MSGP padding", pad);
				this.buffer.position(this.buffer.position() + (int) pad);
			}
		}
		return readFixedOpaque(length);
	}

	/** RFC 4506 §4.10 variable-length opaque, copied into a new array of at most {@code maxLength}. */
	public byte[] readOpaqueBytes(int maxLength) {
		ByteBuffer slice = readOpaque(maxLength);
		byte[] bytes = new byte[slice.remaining()];
		slice.get(bytes);
		return bytes;
	}

	/**
	 * RFC 4506 §4.11 string of at most {@code maxLength} bytes, decoded as strict UTF-8 (RFC
	 * 4506 speaks of ASCII, which is the subset of UTF-8 that the fast path decodes without a
	 * charset decoder).
	 * @param maxLength the largest length in bytes this receiver accepts
	 * @return the string
	 * @throws XdrInvalidValueException if the bytes are not valid UTF-8
	 */
	public String readString(int maxLength) {
		ByteBuffer slice = readOpaque(maxLength);
		int length = slice.remaining();
		byte[] bytes = new byte[length];
		slice.get(bytes);
		if (isAscii(bytes)) {
			return new String(bytes, StandardCharsets.US_ASCII);
		}
		try {
			return StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(bytes))
				.toString();
		}
		catch (CharacterCodingException ex) {
			throw new XdrInvalidValueException("XDR string is not valid UTF-8: " + ex.getMessage());
		}
	}

	/**
	 * Reads the element count of a variable-length array (RFC 4506 §4.13) and checks it
	 * against {@code maxCount} and against the bytes that remain, given that each element
	 * takes at least {@code minElementSize} bytes. Only a count that passes both may be used
	 * to size an allocation.
	 * @param what a name for the array, for messages
	 * @param maxCount the largest count this receiver accepts
	 * @param minElementSize the smallest encoded size of one element, at least 4 (every XDR
	 * item takes a multiple of four bytes, RFC 4506 §3)
	 * @return the count
	 */
	public int readArrayCount(String what, int maxCount, int minElementSize) {
		if (minElementSize < Xdr.UNIT) {
			// A smaller bound would let a hostile count through the remaining-bytes check.
			throw new IllegalArgumentException("minElementSize must be at least 4 but was " + minElementSize);
		}
		long count = readUnsignedInt();
		if (count > maxCount) {
			// The name is concatenated only here so the common path allocates nothing.
			throw new XdrLimitExceededException(what + " count", count, maxCount);
		}
		long needed = count * minElementSize;
		if (needed > this.buffer.remaining()) {
			throw new XdrTruncatedException(what + " of " + count + " elements", needed, this.buffer.remaining());
		}
		return (int) count;
	}

	/**
	 * Reads an unsigned length and checks it against a limit.
	 * @param what a name for the length, for messages
	 * @param max the largest length accepted
	 * @return the length
	 */
	public int readLength(String what, int max) {
		long length = readUnsignedInt();
		if (length > max) {
			throw new XdrLimitExceededException(what, length, max);
		}
		return (int) length;
	}

	/**
	 * Skips {@code length} bytes of data plus their XDR padding.
	 * @param length a non-negative length
	 * @return this decoder
	 */
	public XdrDecoder skip(long length) {
		if (length < 0) {
			// Without this check a negative length would move the position backwards.
			throw new IllegalArgumentException("cannot skip a negative length: " + length);
		}
		long padded = Xdr.pad(length);
		ensure("skipped data", padded);
		this.buffer.position(this.buffer.position() + (int) padded);
		return this;
	}

	private static boolean isAscii(byte[] bytes) {
		for (byte b : bytes) {
			if (b < 0) {
				return false;
			}
		}
		return true;
	}

	private void ensure(String what, long bytes) {
		if (bytes > this.buffer.remaining()) {
			throw new XdrTruncatedException(what, bytes, this.buffer.remaining());
		}
	}

}

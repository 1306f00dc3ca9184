package io.rpcrdma.protocol;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;

/**
 * The RPC-over-RDMA Version 1 connection private data of RFC 8797 §4, carried in the RDMA-CM
 * connect request and accept so that peers learn each other's inline sizes and remote
 * invalidation support before the first message:
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 Format Identifier (0xf6ab0e18)                |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |    Version    |   Reserved  |I| Max Send Size | Max Recv Size |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * All multi-byte fields are in network byte order. A size byte {@code n} means {@code (n + 1)}
 * KiB, so 1 KiB to 256 KiB can be expressed.
 *
 * @param version the format version, 1 for RFC 8797 (0 to 255 can be encoded)
 * @param remoteInvalidate the "I" flag: the sender of this data can receive Send With
 * Invalidate, so its peer may invalidate the sender's chunks remotely
 * @param maxSendSize the largest Send, in bytes, the sender of this data will transmit; at
 * least 1024 (RFC 8166 §3.3.2 minimum inline threshold)
 * @param maxReceiveSize the size, in bytes, of the receive buffers the sender of this data
 * posts, that is its inline threshold; at least 1024
 */
public record Rfc8797PrivateData(int version, boolean remoteInvalidate, int maxSendSize, int maxReceiveSize) {

	/** RFC 8797 §4.1 Format Identifier, which tells this format from other private data. */
	public static final int FORMAT_IDENTIFIER = 0xf6ab0e18;

	/** RFC 8797 §4.1: the version this document defines. */
	public static final int VERSION_1 = 1;

	/** Encoded length in bytes. */
	public static final int LENGTH = 8;

	/** The "I" (remote invalidation) flag: bit 0 of the flags byte. */
	public static final int FLAG_REMOTE_INVALIDATE = 0x01;

	/** The smallest expressible size, encoded as 0. */
	public static final int MIN_SIZE = 1024;

	/** The largest expressible size, encoded as 255. */
	public static final int MAX_SIZE = 256 * 1024;

	public Rfc8797PrivateData {
		if (version < 0 || version > 255) {
			throw new IllegalArgumentException("RFC 8797 version is one byte; " + version + " does not fit");
		}
		checkSize("maxSendSize", maxSendSize);
		checkSize("maxReceiveSize", maxReceiveSize);
	}

	/** Version 1 private data. */
	public static Rfc8797PrivateData of(boolean remoteInvalidate, int maxSendSize, int maxReceiveSize) {
		return new Rfc8797PrivateData(VERSION_1, remoteInvalidate, maxSendSize, maxReceiveSize);
	}

	private static void checkSize(String name, int size) {
		// RFC 8166 §3.3.2: every receiver supports at least a 1024-byte inline threshold, and
		// the encoding cannot express less.
		if (size < MIN_SIZE) {
			throw new IllegalArgumentException(
					name + " of " + size + " bytes is below the 1024-byte minimum RFC 8797 can express");
		}
	}

	/**
	 * The values the peer will see after encoding: sizes rounded down to a multiple of 1 KiB
	 * and capped at 256 KiB. Rounding down is the safe direction for both: the peer never
	 * sends more than this side can receive, and expects no more than this side sends. A
	 * transport must hold itself to these values, not to the ones it asked for.
	 * @return the effective private data
	 */
	public Rfc8797PrivateData effective() {
		return new Rfc8797PrivateData(this.version, this.remoteInvalidate, decodeSize(encodeSize(this.maxSendSize)),
				decodeSize(encodeSize(this.maxReceiveSize)));
	}

	/** @return the eight bytes of private data */
	public byte[] encode() {
		byte[] bytes = new byte[LENGTH];
		encode(ByteBuffer.wrap(bytes));
		return bytes;
	}

	/**
	 * Writes the eight bytes at the buffer's position, advancing it.
	 * @param target where to write, with at least eight bytes of room
	 */
	public void encode(ByteBuffer target) {
		ByteBuffer out = target.duplicate().order(ByteOrder.BIG_ENDIAN);
		out.putInt(FORMAT_IDENTIFIER);
		out.put((byte) this.version);
		// RFC 8797 §4.1: reserved flag bits are sent as zero.
		out.put((byte) (this.remoteInvalidate ? FLAG_REMOTE_INVALIDATE : 0));
		out.put((byte) encodeSize(this.maxSendSize));
		out.put((byte) encodeSize(this.maxReceiveSize));
		target.position(out.position());
	}

	/**
	 * Reads private data received from a peer, between the buffer's position and limit,
	 * without moving the position. The result is empty, and the caller falls back to the
	 * Version 1 default inline threshold of 1024 bytes (RFC 8166 §3.3.2), when:
	 * <ul>
	 * <li>fewer than eight bytes arrived (the peer sent none; RDMA-CM may also deliver a
	 * zero-filled area);</li>
	 * <li>the Format Identifier does not match, so the bytes are some other protocol's or
	 * application's private data (RFC 8797 §4.1);</li>
	 * <li>the version is not 1: a receiver acts only on versions it knows and otherwise behaves
	 * as if no private data were present.</li>
	 * </ul>
	 * Bytes beyond the eighth (RDMA-CM pads private data areas) and reserved flag bits are
	 * ignored.
	 * @param received the private data
	 * @return the decoded data, or empty
	 */
	public static Optional<Rfc8797PrivateData> decode(ByteBuffer received) {
		if (received.remaining() < LENGTH) {
			return Optional.empty();
		}
		ByteBuffer in = received.duplicate().order(ByteOrder.BIG_ENDIAN);
		if (in.getInt() != FORMAT_IDENTIFIER) {
			return Optional.empty();
		}
		int version = in.get() & 0xFF;
		if (version != VERSION_1) {
			return Optional.empty();
		}
		int flags = in.get() & 0xFF;
		int sendSize = decodeSize(in.get() & 0xFF);
		int receiveSize = decodeSize(in.get() & 0xFF);
		return Optional.of(new Rfc8797PrivateData(version, (flags & FLAG_REMOTE_INVALIDATE) != 0, sendSize, receiveSize));
	}

	/** Reads private data from an array; see {@link #decode(ByteBuffer)}. */
	public static Optional<Rfc8797PrivateData> decode(byte[] received) {
		return decode(ByteBuffer.wrap(received));
	}

	/**
	 * RFC 8797 §4.1: size byte = size / 1024 - 1. Integer division rounds a size that is not a
	 * multiple of 1 KiB down, never advertising more than is there; sizes above 256 KiB are
	 * capped to the largest expressible.
	 */
	static int encodeSize(int size) {
		return Math.min(size, MAX_SIZE) / 1024 - 1;
	}

	/** RFC 8797 §4.1: size = (size byte + 1) * 1024. */
	static int decodeSize(int encoded) {
		return (encoded + 1) * 1024;
	}

}

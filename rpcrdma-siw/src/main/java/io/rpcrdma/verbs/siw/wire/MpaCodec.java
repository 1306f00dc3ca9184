package io.rpcrdma.verbs.siw.wire;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Encodes and strictly decodes MPA Request and Reply frames (RFC 5044 §7.1, RFC 6581 §7.1).
 * <p>
 * Decoding is incremental, for a TCP stream that delivers the frame in pieces: the key is
 * checked against as many bytes as have arrived, and the revision and private data length
 * are checked as soon as the 20-byte header is complete, so a peer that is not speaking MPA,
 * or announces more private data than allowed, is refused without waiting for or buffering
 * what it claims to send.
 */
public final class MpaCodec {

	/** Key, flags, revision and PD_Length. */
	public static final int HEADER_LENGTH = 20;

	/** RFC 5044 §7.1: PD_Length must not exceed 512. */
	public static final int MAX_PRIVATE_DATA_LENGTH = 512;

	/**
	 * Linux siw refuses MPA frames with more private data than this (its
	 * {@code MPA_MAX_PRIVDATA}, the RDMA CM's 256-byte private data limit), IRD/ORD included.
	 * Use it as the limit when the peer may be siw.
	 */
	public static final int SIW_MAX_PRIVATE_DATA_LENGTH = 256;

	private static final int KEY_LENGTH = 16;

	private final int maxPrivateDataLength;

	/** A codec enforcing the RFC 5044 limit of 512 bytes of private data. */
	public MpaCodec() {
		this(MAX_PRIVATE_DATA_LENGTH);
	}

	/**
	 * @param maxPrivateDataLength the largest PD_Length accepted or produced, at most 512
	 */
	public MpaCodec(int maxPrivateDataLength) {
		if (maxPrivateDataLength < MpaIrdOrd.LENGTH || maxPrivateDataLength > MAX_PRIVATE_DATA_LENGTH) {
			throw new IllegalArgumentException("private data limit must be in [" + MpaIrdOrd.LENGTH + ", "
					+ MAX_PRIVATE_DATA_LENGTH + "] but was " + maxPrivateDataLength);
		}
		this.maxPrivateDataLength = maxPrivateDataLength;
	}

	/** @return the largest PD_Length accepted or produced */
	public int maxPrivateDataLength() {
		return this.maxPrivateDataLength;
	}

	/**
	 * @param frame a frame
	 * @return its size on the wire
	 */
	public int encodedLength(MpaFrame frame) {
		return HEADER_LENGTH + frame.privateDataLength();
	}

	/**
	 * Writes a frame at the buffer's position.
	 * @param frame the frame
	 * @param out target; must have {@link #encodedLength(MpaFrame)} bytes of room
	 * @throws MpaPrivateDataLengthException when the frame's private data exceeds this codec's
	 * limit
	 * @throws java.nio.BufferOverflowException when {@code out} is too small (nothing written)
	 */
	public void encode(MpaFrame frame, ByteBuffer out) {
		int pdLength = frame.privateDataLength();
		if (pdLength > this.maxPrivateDataLength) {
			throw new MpaPrivateDataLengthException(pdLength, this.maxPrivateDataLength);
		}
		if (out.remaining() < HEADER_LENGTH + pdLength) {
			throw new java.nio.BufferOverflowException();
		}
		out.put(frame.kind().key());
		out.put((byte) frame.flags());
		out.put((byte) frame.revision());
		Be.put16(out, pdLength);
		if (frame.irdOrd() != null) {
			frame.irdOrd().encode(out);
		}
		out.put(frame.privateData());
	}

	/**
	 * @param frame the frame
	 * @return a new heap buffer holding the encoded frame, flipped for reading
	 */
	public ByteBuffer encode(MpaFrame frame) {
		ByteBuffer out = ByteBuffer.allocate(encodedLength(frame));
		encode(frame, out);
		return out.flip();
	}

	/**
	 * Validates what has arrived of a frame and tells how long the whole frame is.
	 * @param in received bytes from position to limit; not consumed
	 * @param expected the kind of frame due in this role
	 * @return the frame length, or -1 while the 20-byte header is incomplete
	 * @throws MpaFrameException when what has arrived already breaks RFC 5044/6581
	 */
	public int frameLength(ByteBuffer in, MpaFrame.Kind expected) {
		int start = in.position();
		int available = in.remaining();
		int keyBytes = Math.min(available, KEY_LENGTH);
		for (int i = 0; i < keyBytes; i++) {
			if (in.get(start + i) != expected.keyByte(i)) {
				throw new MpaInvalidKeyException(expected, describe(in, start, keyBytes));
			}
		}
		if (available < HEADER_LENGTH) {
			return -1;
		}
		int flags = Be.u8(in, start + KEY_LENGTH);
		int revision = Be.u8(in, start + KEY_LENGTH + 1);
		int pdLength = Be.u16(in, start + KEY_LENGTH + 2);
		if (revision != MpaFrame.REVISION_1 && revision != MpaFrame.REVISION_2) {
			throw new MpaUnsupportedRevisionException(revision);
		}
		if (pdLength > this.maxPrivateDataLength) {
			throw new MpaPrivateDataLengthException(pdLength, this.maxPrivateDataLength);
		}
		if (expected == MpaFrame.Kind.REQUEST && (flags & MpaFrame.FLAG_REJECT) != 0) {
			throw new MpaFrameException("MPA Request has the Reject flag set; only a Reply may reject (RFC 5044 §7.1)");
		}
		if (enhanced(flags, revision) && pdLength < MpaIrdOrd.LENGTH) {
			throw new MpaFrameException("enhanced MPA frame declares " + pdLength
					+ " bytes of private data but must start with the 4-byte IRD/ORD words (RFC 6581 §7.1)");
		}
		return HEADER_LENGTH + pdLength;
	}

	/**
	 * Decodes a frame once all of it has arrived.
	 * @param in received bytes; on success the position moves past the frame, otherwise it is
	 * unchanged
	 * @param expected the kind of frame due in this role
	 * @return the frame, or empty while it is incomplete
	 * @throws MpaFrameException when the bytes break RFC 5044/6581
	 */
	public Optional<MpaFrame> decode(ByteBuffer in, MpaFrame.Kind expected) {
		int length = frameLength(in, expected);
		if (length < 0 || in.remaining() < length) {
			return Optional.empty();
		}
		int start = in.position();
		int flags = Be.u8(in, start + KEY_LENGTH);
		int revision = Be.u8(in, start + KEY_LENGTH + 1);
		int pdLength = length - HEADER_LENGTH;
		int pdStart = start + HEADER_LENGTH;
		MpaIrdOrd irdOrd = null;
		if (enhanced(flags, revision)) {
			irdOrd = MpaIrdOrd.decode(in, pdStart);
			pdStart += MpaIrdOrd.LENGTH;
			pdLength -= MpaIrdOrd.LENGTH;
		}
		byte[] privateData = new byte[pdLength];
		in.get(pdStart, privateData);
		in.position(start + length);
		return Optional.of(new MpaFrame(expected, (flags & MpaFrame.FLAG_MARKERS) != 0,
				(flags & MpaFrame.FLAG_CRC) != 0, (flags & MpaFrame.FLAG_REJECT) != 0, revision, irdOrd, privateData));
	}

	// RFC 6581: the E flag is only defined for revision 2; in revision 1 it is a reserved bit.
	private static boolean enhanced(int flags, int revision) {
		return revision == MpaFrame.REVISION_2 && (flags & MpaFrame.FLAG_ENHANCED) != 0;
	}

	private static String describe(ByteBuffer in, int start, int length) {
		byte[] bytes = new byte[length];
		in.get(start, bytes);
		boolean printable = true;
		for (byte b : bytes) {
			printable &= b >= 0x20 && b < 0x7F;
		}
		return printable ? "\"" + new String(bytes, StandardCharsets.US_ASCII) + "\""
				: "bytes " + HexFormat.ofDelimiter(" ").formatHex(bytes);
	}

}

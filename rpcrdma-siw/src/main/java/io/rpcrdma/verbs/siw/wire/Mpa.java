package io.rpcrdma.verbs.siw.wire;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * MPA framing arithmetic (RFC 5044 §4): FPDU sizes, padding, MULPDU and the CRC32c trailer.
 * <p>
 * An FPDU without markers is {@code ULPDU_Length (2) | ULPDU | PAD (0..3) | CRC (4)}. The pad
 * makes {@code 2 + ULPDU + PAD} a multiple of 4 (RFC 5044 §4.2). The CRC field is always
 * present; it carries CRC32c over everything before it when CRC was negotiated and zero
 * otherwise (RFC 5044 §4.4, §7.1).
 * <p>
 * <b>CRC byte order.</b> RFC 5044 takes its CRC32c from iSCSI (RFC 3720 §12.1), whose appendix
 * B.4 shows the check value of 32 zero bytes, 0x8A9136AA, travelling as bytes
 * {@code aa 36 91 8a}: the register value least significant byte first. Linux siw does the same
 * (it stores the little-endian result of the kernel's crc32c shash into the trailer and says it
 * never converts byte order), and Wireshark's MPA dissector agrees: it reads the trailer
 * big-endian and compares it with the byte-swapped CRC32c of the FPDU. So this class writes
 * {@link CRC32C#getValue()} little-endian.
 * <p>
 * Markers (RFC 5044 §5) are never used by this library, so none of these computations make
 * room for them.
 */
public final class Mpa {

	/** Size of the ULPDU Length field. */
	public static final int LENGTH_FIELD = 2;

	/** Size of the CRC field, present even when CRC is off. */
	public static final int CRC_FIELD = 4;

	/** Largest value of the 16-bit ULPDU Length field. */
	public static final int MAX_ULPDU_LENGTH = 0xFFFF;

	/**
	 * Largest MULPDU this library ever uses: the largest ULPDU for which {@code 2 + ULPDU} is a
	 * multiple of 4, so maximum-size FPDUs need no pad.
	 */
	public static final int MAX_MULPDU = 0xFFFE;

	/**
	 * Smallest EMSS accepted by {@link #mulpdu(int)}: the MULPDU must leave room for the largest
	 * fixed header (a 46-byte Read Request ULPDU) plus payload, and 128 keeps FPDUs meaningful.
	 */
	public static final int MIN_EMSS = 128;

	private Mpa() {
	}

	/**
	 * @param ulpduLength ULPDU length in bytes
	 * @return pad bytes (0..3) that follow the ULPDU (RFC 5044 §4.2)
	 */
	public static int padLength(int ulpduLength) {
		return -(LENGTH_FIELD + ulpduLength) & 3;
	}

	/**
	 * @param ulpduLength ULPDU length in bytes
	 * @return total FPDU length: length field, ULPDU, pad and CRC field
	 */
	public static int fpduLength(int ulpduLength) {
		return LENGTH_FIELD + ulpduLength + padLength(ulpduLength) + CRC_FIELD;
	}

	/**
	 * The maximum ULPDU that fits one TCP segment, RFC 5044 §4 without markers:
	 * {@code MULPDU = EMSS - (6 + EMSS mod 4)}, where 6 is the length field plus CRC and the
	 * {@code EMSS mod 4} term keeps the padded FPDU within EMSS. Capped at {@link #MAX_MULPDU}
	 * because the ULPDU Length field has 16 bits (loopback MSS is about 65483).
	 * @param emss effective MSS: the smaller of TCP's MSS and the path MTU less IP and TCP
	 * headers
	 * @return the MULPDU
	 * @throws IllegalArgumentException when {@code emss < MIN_EMSS}
	 */
	public static int mulpdu(int emss) {
		if (emss < MIN_EMSS) {
			throw new IllegalArgumentException("EMSS " + emss + " is below the minimum of " + MIN_EMSS
					+ " bytes; an FPDU must hold a DDP/RDMAP header and some payload");
		}
		return Math.min(emss - (LENGTH_FIELD + CRC_FIELD + (emss & 3)), MAX_MULPDU);
	}

	/**
	 * CRC32c of {@code length} bytes of {@code buffer} starting at {@code offset}, without
	 * moving the buffer's position or limit.
	 * @param crc a reusable checksum, reset by this method
	 * @param buffer the bytes
	 * @param offset first byte
	 * @param length byte count
	 * @return the CRC32c register value
	 */
	public static int crc32c(CRC32C crc, ByteBuffer buffer, int offset, int length) {
		crc.reset();
		ByteBuffer view = buffer.duplicate();
		view.limit(offset + length).position(offset);
		crc.update(view);
		return (int) crc.getValue();
	}

	/**
	 * Writes a CRC32c value into the CRC field at {@code index}, least significant byte first
	 * (see the class comment for why).
	 * @param buffer target
	 * @param index index of the CRC field
	 * @param crc CRC32c register value
	 */
	public static void putCrc(ByteBuffer buffer, int index, int crc) {
		buffer.put(index, (byte) crc);
		buffer.put(index + 1, (byte) (crc >>> 8));
		buffer.put(index + 2, (byte) (crc >>> 16));
		buffer.put(index + 3, (byte) (crc >>> 24));
	}

	/**
	 * Reads the CRC field at {@code index} (the inverse of {@link #putCrc}).
	 * @param buffer source
	 * @param index index of the CRC field
	 * @return the CRC32c register value carried
	 */
	public static int getCrc(ByteBuffer buffer, int index) {
		return (buffer.get(index) & 0xFF) | (buffer.get(index + 1) & 0xFF) << 8 | (buffer.get(index + 2) & 0xFF) << 16
				| (buffer.get(index + 3) & 0xFF) << 24;
	}

}

package io.rpcrdma.verbs.siw.wire;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * An MPA Request or Reply frame, exchanged once at connection start before any FPDU
 * (RFC 5044 §7.1, enhanced by RFC 6581 §7.1):
 *
 * <pre>
 * +-------------------------------------------------------------+
 * | Key: "MPA ID Req Frame" or "MPA ID Rep Frame" (16 bytes)    |
 * +-+-+-+-+-------+---------------+-----------------------------+
 * |M|C|R|E|  Res  |   Revision    |   PD_Length (16 bits)       |
 * +-+-+-+-+-------+---------------+-----------------------------+
 * | [IRD/ORD (4 bytes) when E]  private data (PD_Length bytes)  |
 * +-------------------------------------------------------------+
 * </pre>
 *
 * M (0x80) asks the peer to send markers, C (0x40) asks for CRC, R (0x20, replies only)
 * rejects the connection, and E (0x10, called enhanced by Linux siw's
 * {@code MPA_RR_FLAG_ENHANCED}) says a revision 2 frame starts its private data with the
 * {@link MpaIrdOrd} words (RFC 6581). The remaining bits are reserved: sent as zero and ignored
 * on receipt (siw uses 0x08 privately to offer oversized "GSO" FPDUs; ignoring it keeps siw at
 * one FPDU per TCP segment).
 *
 * @param kind request or reply
 * @param markers M flag
 * @param crc C flag
 * @param reject R flag, replies only
 * @param revision 1 (RFC 5044) or 2 (RFC 6581)
 * @param irdOrd the enhanced IRD/ORD words, or null when the E flag is clear; needs revision 2
 * @param privateData the ULP's private data, after the IRD/ORD words when present
 */
public record MpaFrame(Kind kind, boolean markers, boolean crc, boolean reject, int revision, MpaIrdOrd irdOrd,
		byte[] privateData) {

	/** M: the sender requires markers in the FPDUs it receives (RFC 5044 §7.1). */
	public static final int FLAG_MARKERS = 0x80;

	/** C: the sender requires CRC32c on FPDUs (RFC 5044 §7.1). */
	public static final int FLAG_CRC = 0x40;

	/** R: the responder rejects the connection (RFC 5044 §7.1). */
	public static final int FLAG_REJECT = 0x20;

	/** E: private data starts with IRD/ORD (RFC 6581; siw's {@code MPA_RR_FLAG_ENHANCED}). */
	public static final int FLAG_ENHANCED = 0x10;

	/** Revision of RFC 5044. */
	public static final int REVISION_1 = 1;

	/** Revision of RFC 6581 (enhanced connection establishment). */
	public static final int REVISION_2 = 2;

	private static final byte[] EMPTY = new byte[0];

	public MpaFrame {
		Objects.requireNonNull(kind, "kind");
		if (revision != REVISION_1 && revision != REVISION_2) {
			throw new IllegalArgumentException("MPA revision must be 1 or 2 but was " + revision);
		}
		if (irdOrd != null && revision != REVISION_2) {
			throw new IllegalArgumentException("IRD/ORD (enhanced MPA) needs revision 2 (RFC 6581)");
		}
		if (reject && kind == Kind.REQUEST) {
			throw new IllegalArgumentException("only an MPA Reply can carry the Reject flag (RFC 5044 §7.1)");
		}
		privateData = (privateData == null || privateData.length == 0) ? EMPTY : privateData.clone();
		int pdLength = privateData.length + (irdOrd != null ? MpaIrdOrd.LENGTH : 0);
		if (pdLength > MpaCodec.MAX_PRIVATE_DATA_LENGTH) {
			throw new MpaPrivateDataLengthException(pdLength, MpaCodec.MAX_PRIVATE_DATA_LENGTH);
		}
	}

	/**
	 * A revision 2 request without markers.
	 * @param crc whether to ask for CRC
	 * @param irdOrd enhanced parameters, or null for a plain revision 2 request
	 * @param privateData ULP private data
	 * @return the request
	 */
	public static MpaFrame request(boolean crc, MpaIrdOrd irdOrd, byte[] privateData) {
		return new MpaFrame(Kind.REQUEST, false, crc, false, REVISION_2, irdOrd, privateData);
	}

	/** @return true when the E flag is set, i.e. IRD/ORD words are present */
	public boolean enhanced() {
		return this.irdOrd != null;
	}

	/** @return the PD_Length field: IRD/ORD words plus ULP private data */
	public int privateDataLength() {
		return this.privateData.length + (this.irdOrd != null ? MpaIrdOrd.LENGTH : 0);
	}

	/** @return the flags byte as sent */
	public int flags() {
		return (this.markers ? FLAG_MARKERS : 0) | (this.crc ? FLAG_CRC : 0) | (this.reject ? FLAG_REJECT : 0)
				| (this.irdOrd != null ? FLAG_ENHANCED : 0);
	}

	/** @return a copy of the ULP private data */
	@Override
	public byte[] privateData() {
		return this.privateData.clone();
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof MpaFrame that && this.kind == that.kind && this.markers == that.markers
				&& this.crc == that.crc && this.reject == that.reject && this.revision == that.revision
				&& Objects.equals(this.irdOrd, that.irdOrd) && Arrays.equals(this.privateData, that.privateData);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.kind, this.markers, this.crc, this.reject, this.revision, this.irdOrd)
				+ 31 * Arrays.hashCode(this.privateData);
	}

	@Override
	public String toString() {
		return "MpaFrame[" + this.kind + ", M=" + b(this.markers) + " C=" + b(this.crc) + " R=" + b(this.reject)
				+ ", rev " + this.revision + ", " + (this.irdOrd != null ? this.irdOrd + ", " : "") + "pd="
				+ HexFormat.of().formatHex(this.privateData) + "]";
	}

	private static int b(boolean flag) {
		return flag ? 1 : 0;
	}

	/** Which side sent the frame; each has its own 16-byte key (RFC 5044 §7.1). */
	public enum Kind {

		/** Sent by the initiator: "MPA ID Req Frame". */
		REQUEST("MPA ID Req Frame"),

		/** Sent by the responder: "MPA ID Rep Frame". */
		REPLY("MPA ID Rep Frame");

		private final String keyText;

		private final byte[] key;

		Kind(String keyText) {
			this.keyText = keyText;
			this.key = keyText.getBytes(StandardCharsets.US_ASCII);
		}

		/** @return the key as text */
		public String keyText() {
			return this.keyText;
		}

		/** @return the 16 key bytes */
		public byte[] key() {
			return this.key.clone();
		}

		byte keyByte(int index) {
			return this.key[index];
		}

	}

}

package io.rpcrdma.verbs.siw.wire;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * The body of an RDMAP Terminate message (RFC 5040 §4.8), which follows the untagged DDP
 * header on queue 2:
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-------+-------+---------------+-+-+-+-------------------------+
 * | Layer | EType |  Error Code   |M|D|R|       Reserved          |
 * +-------+-------+---------------+-+-+-+-------------------------+
 * |  DDP Segment Length (16)      |  Terminated DDP Header ...    |  when D
 * +-------------------------------+-------------------------------+
 * |  Terminated RDMAP Header (28 bytes) ...                       |  when R
 * +---------------------------------------------------------------+
 * </pre>
 *
 * D says the DDP header of the segment that caused the error is copied (14 bytes if tagged,
 * 18 if untagged, as its own T bit tells), preceded by that segment's length, which M declares
 * valid; R says the RDMAP header (the 28-byte Read Request header) follows. This is the layout
 * Linux siw sends ({@code siw_send_terminate}: the copied header's leading MPA length field
 * becomes the DDP Segment Length, M and D set together) and Wireshark decodes (DDP Segment
 * Length and DDP header when D, RDMAP header when R). Accordingly this class requires D
 * whenever M or R is set. When decoding, an R bit without the 28 bytes it announces is read as
 * "no RDMAP header": siw sends that for protection errors on Sends.
 *
 * @param layer 4-bit layer
 * @param errorType 4-bit error type
 * @param errorCode 8-bit error code
 * @param segmentLengthValid M
 * @param ddpSegmentLength length of the terminated segment, 0..65535; 0 when no DDP header
 * is copied
 * @param ddpHeader copied DDP header (D), or null
 * @param rdmapHeader copied Read Request header (R), or null
 */
public record TerminateMessage(int layer, int errorType, int errorCode, boolean segmentLengthValid,
		int ddpSegmentLength, byte[] ddpHeader, byte[] rdmapHeader) {

	/** Size of the Terminate Control field and reserved bits. */
	public static final int CONTROL_LENGTH = 4;

	/** ULPDU size of a Terminate without copied headers: untagged DDP header and control. */
	public static final int MIN_ULPDU_LENGTH = UntaggedHeader.LENGTH + CONTROL_LENGTH;

	private static final int FLAG_M = 0x80;

	private static final int FLAG_D = 0x40;

	private static final int FLAG_R = 0x20;

	/** Where a little-endian Linux host puts M, D and R (see {@link #decode}). */
	private static final int LINUX_LE_FLAGS = 0x07;

	public TerminateMessage {
		if ((layer & ~0xF) != 0 || (errorType & ~0xF) != 0 || (errorCode & ~0xFF) != 0) {
			throw new IllegalArgumentException("layer and error type must fit 4 bits and error code 8 bits: " + layer
					+ "/" + errorType + "/" + errorCode);
		}
		if (ddpHeader != null) {
			ddpHeader = ddpHeader.clone();
			int expected = ddpHeaderLength(ddpHeader.length > 0 ? ddpHeader[0] : 0);
			if (ddpHeader.length != expected) {
				throw new IllegalArgumentException("a copied " + (expected == TaggedHeader.LENGTH ? "tagged" : "untagged")
						+ " DDP header has " + expected + " bytes, not " + ddpHeader.length);
			}
		}
		if (rdmapHeader != null) {
			rdmapHeader = rdmapHeader.clone();
			if (rdmapHeader.length != ReadRequest.LENGTH) {
				throw new IllegalArgumentException("a copied RDMAP header has " + ReadRequest.LENGTH + " bytes, not "
						+ rdmapHeader.length);
			}
		}
		if (ddpHeader == null && (segmentLengthValid || rdmapHeader != null || ddpSegmentLength != 0)) {
			throw new IllegalArgumentException(
					"a DDP Segment Length (M) or RDMAP header (R) needs the DDP header (D) to be copied too");
		}
		if (ddpSegmentLength < 0 || ddpSegmentLength > 0xFFFF) {
			throw new IllegalArgumentException("DDP Segment Length must fit 16 bits: " + ddpSegmentLength);
		}
	}

	/**
	 * A Terminate without copied headers.
	 * @param error the error
	 * @return the message
	 */
	public static TerminateMessage of(TerminateError error) {
		return new TerminateMessage(error.layer(), error.errorType(), error.errorCode(), false, 0, null, null);
	}

	/**
	 * A Terminate quoting the segment that caused the error.
	 * @param error the error
	 * @param ddpSegmentLength that segment's length (M set)
	 * @param ddpHeader its DDP header (D set)
	 * @param rdmapHeader its Read Request header, or null (R)
	 * @return the message
	 */
	public static TerminateMessage of(TerminateError error, int ddpSegmentLength, byte[] ddpHeader,
			byte[] rdmapHeader) {
		return new TerminateMessage(error.layer(), error.errorType(), error.errorCode(), true, ddpSegmentLength,
				Objects.requireNonNull(ddpHeader, "ddpHeader"), rdmapHeader);
	}

	/** @return the error, when the triple is one the RFCs define */
	public Optional<TerminateError> error() {
		return TerminateError.of(this.layer, this.errorType, this.errorCode);
	}

	/** @return D */
	public boolean ddpHeaderIncluded() {
		return this.ddpHeader != null;
	}

	/** @return R */
	public boolean rdmapHeaderIncluded() {
		return this.rdmapHeader != null;
	}

	@Override
	public byte[] ddpHeader() {
		return this.ddpHeader == null ? null : this.ddpHeader.clone();
	}

	@Override
	public byte[] rdmapHeader() {
		return this.rdmapHeader == null ? null : this.rdmapHeader.clone();
	}

	/** @return bytes after the untagged DDP header */
	public int length() {
		return CONTROL_LENGTH + (this.ddpHeader != null ? 2 + this.ddpHeader.length : 0)
				+ (this.rdmapHeader != null ? ReadRequest.LENGTH : 0);
	}

	/**
	 * Writes {@link #length()} bytes at the buffer's position.
	 * @param out target
	 */
	public void encode(ByteBuffer out) {
		out.put((byte) (this.layer << 4 | this.errorType));
		out.put((byte) this.errorCode);
		out.put((byte) ((this.segmentLengthValid ? FLAG_M : 0) | (this.ddpHeader != null ? FLAG_D : 0)
				| (this.rdmapHeader != null ? FLAG_R : 0)));
		out.put((byte) 0);
		if (this.ddpHeader != null) {
			Be.put16(out, this.ddpSegmentLength);
			out.put(this.ddpHeader);
		}
		if (this.rdmapHeader != null) {
			out.put(this.rdmapHeader);
		}
	}

	/**
	 * Decodes a Terminate body.
	 * @param in source
	 * @param index first byte after the untagged DDP header
	 * @param length bytes of body (ULPDU length less the DDP header)
	 * @return the message
	 * @throws RdmapHeaderException when the body's length does not match its M/D/R bits
	 */
	public static TerminateMessage decode(ByteBuffer in, int index, int length) {
		if (length < CONTROL_LENGTH) {
			throw malformed("a Terminate needs its 4-byte control field but has " + length + " bytes");
		}
		int control = Be.u8(in, index);
		int code = Be.u8(in, index + 1);
		int flags = Be.u8(in, index + 2);
		if ((flags & (FLAG_M | FLAG_D | FLAG_R)) == 0 && (flags & LINUX_LE_FLAGS) != 0) {
			// Linux's siw declares the Terminate Control as a C bitfield, which a little-endian
			// host lays out backwards (seen with Debian's 6.1.0 kernel on x86-64, docs/interop.md):
			// M, D and R land in the low bits of the third byte, reserved by RFC 5040 §4.8, and
			// Layer and EType swap nibbles. Those reserved bits identify the layout.
			flags = ((flags & 0x01) << 7) | ((flags & 0x02) << 5) | ((flags & 0x04) << 3);
			control = ((control & 0x0F) << 4) | (control >>> 4);
		}
		boolean m = (flags & FLAG_M) != 0;
		boolean d = (flags & FLAG_D) != 0;
		boolean r = (flags & FLAG_R) != 0;
		if ((m || r) && !d) {
			throw malformed("Terminate sets " + (m ? "M" : "R") + " without D; the copied DDP header must accompany them");
		}
		int position = index + CONTROL_LENGTH;
		int segmentLength = 0;
		byte[] ddp = null;
		byte[] rdmap = null;
		if (d) {
			if (length < CONTROL_LENGTH + 2 + 1) {
				throw malformed("Terminate sets D but has no room for the DDP Segment Length and DDP header");
			}
			segmentLength = Be.u16(in, position);
			int ddpLength = ddpHeaderLength(in.get(position + 2));
			int needed = CONTROL_LENGTH + 2 + ddpLength + (r ? ReadRequest.LENGTH : 0);
			if (r && length == needed - ReadRequest.LENGTH) {
				// Linux siw sets R for RDMAP protection errors on Sends but quotes only the DDP
				// header then (siw_send_terminate copies sizeof(struct iwarp_send)); accept it as
				// a Terminate without an RDMAP header rather than refuse the peer's last words.
				r = false;
				needed = length;
			}
			if (length != needed) {
				throw malformed("Terminate with D" + (r ? " and R" : "") + " quoting a " + ddpLength
						+ "-byte DDP header must have " + needed + " bytes after the DDP header but has " + length);
			}
			ddp = new byte[ddpLength];
			in.get(position + 2, ddp);
			position += 2 + ddpLength;
			if (r) {
				rdmap = new byte[ReadRequest.LENGTH];
				in.get(position, rdmap);
			}
		}
		else if (length != CONTROL_LENGTH) {
			throw malformed("Terminate without copied headers must have 4 bytes after the DDP header but has " + length);
		}
		return new TerminateMessage(control >>> 4, control & 0xF, code, m, segmentLength, ddp, rdmap);
	}

	private static int ddpHeaderLength(int ddpControl) {
		return (ddpControl & DdpControl.TAGGED) != 0 ? TaggedHeader.LENGTH : UntaggedHeader.LENGTH;
	}

	private static RdmapHeaderException malformed(String message) {
		return new RdmapHeaderException(TerminateError.RDMAP_UNSPECIFIED_OPERATION_ERROR, message + " (RFC 5040 §4.8)");
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof TerminateMessage that && this.layer == that.layer && this.errorType == that.errorType
				&& this.errorCode == that.errorCode && this.segmentLengthValid == that.segmentLengthValid
				&& this.ddpSegmentLength == that.ddpSegmentLength && Arrays.equals(this.ddpHeader, that.ddpHeader)
				&& Arrays.equals(this.rdmapHeader, that.rdmapHeader);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.layer, this.errorType, this.errorCode, this.segmentLengthValid, this.ddpSegmentLength)
				+ 31 * Arrays.hashCode(this.ddpHeader) + 961 * Arrays.hashCode(this.rdmapHeader);
	}

	@Override
	public String toString() {
		HexFormat hex = HexFormat.of();
		return "TerminateMessage[" + error().map(Enum::name).orElse("layer " + this.layer + " etype " + this.errorType
				+ " ecode " + this.errorCode) + ", M=" + (this.segmentLengthValid ? 1 : 0) + ", segment length "
				+ this.ddpSegmentLength + ", ddp=" + (this.ddpHeader == null ? "-" : hex.formatHex(this.ddpHeader))
				+ ", rdmap=" + (this.rdmapHeader == null ? "-" : hex.formatHex(this.rdmapHeader)) + "]";
	}

}

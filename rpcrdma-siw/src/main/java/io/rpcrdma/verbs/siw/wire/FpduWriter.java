package io.rpcrdma.verbs.siw.wire;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;

/**
 * Writes complete FPDUs (RFC 5044 §4): ULPDU Length, DDP/RDMAP headers, payload, zero pad and
 * the CRC field, CRC32c when negotiated and zero otherwise.
 * <p>
 * Each call writes exactly one FPDU at the target's position and advances it, or throws
 * {@link BufferOverflowException} having written nothing. Payload is given as an absolute range
 * of a buffer, whose position is left alone. Sizing a message's FPDUs to the MULPDU is
 * {@link DdpSegmenter}'s job. No allocation per FPDU; not thread-safe.
 */
public final class FpduWriter {

	private final boolean crc;

	private final Crc32cEngine crcEngine = new Crc32cEngine();

	/**
	 * @param crc whether MPA CRC was negotiated (RFC 5044 §7.1)
	 */
	public FpduWriter(boolean crc) {
		this.crc = crc;
	}

	/** @return whether FPDUs carry CRC32c */
	public boolean crc() {
		return this.crc;
	}

	/**
	 * Writes one tagged FPDU (RDMA Write or Read Response segment).
	 * @param out target
	 * @param header the DDP/RDMAP header
	 * @param payload payload source
	 * @param offset first payload byte
	 * @param length payload bytes
	 * @return bytes written
	 */
	public int write(ByteBuffer out, TaggedHeader header, ByteBuffer payload, int offset, int length) {
		return writeTagged(out, header.last(), header.opcode(), header.stag(), header.taggedOffset(), payload, offset,
				length);
	}

	/**
	 * Writes one tagged FPDU from header fields, without creating a header object.
	 * @param out target
	 * @param last L flag
	 * @param opcode RDMA Write or Read Response
	 * @param stag data sink STag
	 * @param taggedOffset data sink tagged offset of this segment
	 * @param payload payload source
	 * @param offset first payload byte
	 * @param length payload bytes
	 * @return bytes written
	 */
	public int writeTagged(ByteBuffer out, boolean last, RdmapOpcode opcode, int stag, long taggedOffset,
			ByteBuffer payload, int offset, int length) {
		if (!opcode.tagged()) {
			throw new IllegalArgumentException(opcode + " is not a tagged RDMAP message (RFC 5040 §4.3)");
		}
		checkPayload(payload, offset, length);
		int start = begin(out, TaggedHeader.LENGTH + length);
		TaggedHeader.encode(out, last, opcode, stag, taggedOffset);
		return finish(out, start, payload, offset, length);
	}

	/**
	 * Writes only the ULPDU Length field and the header of a tagged FPDU, for a sender that
	 * hands the payload to the socket itself (a gathering write, no copy), followed by
	 * {@link #trailerLength(int)} zero bytes: the pad and a zero CRC field. Without CRC only,
	 * since the CRC would need the payload (RFC 5044 §4.4).
	 * @param out target
	 * @param last L flag
	 * @param opcode RDMA Write or Read Response
	 * @param stag data sink STag
	 * @param taggedOffset data sink tagged offset of this segment
	 * @param payloadLength payload bytes that follow
	 * @return bytes written (16)
	 * @throws IllegalStateException when CRC is on
	 */
	public int writeTaggedHeader(ByteBuffer out, boolean last, RdmapOpcode opcode, int stag, long taggedOffset,
			int payloadLength) {
		if (this.crc) {
			throw new IllegalStateException("with MPA CRC the payload must pass through the writer; use writeTagged");
		}
		if (!opcode.tagged()) {
			throw new IllegalArgumentException(opcode + " is not a tagged RDMAP message (RFC 5040 §4.3)");
		}
		int ulpduLength = TaggedHeader.LENGTH + payloadLength;
		if (ulpduLength > Mpa.MAX_ULPDU_LENGTH) {
			throw new IllegalArgumentException("ULPDU of " + ulpduLength + " bytes exceeds the 16-bit ULPDU Length field");
		}
		int start = out.position();
		Be.put16(out, ulpduLength);
		TaggedHeader.encode(out, last, opcode, stag, taggedOffset);
		return out.position() - start;
	}

	/**
	 * The bytes after a tagged payload written by {@link #writeTaggedHeader}: pad and CRC field.
	 * @param payloadLength payload bytes
	 * @return the trailer length, 4 to 7
	 */
	public static int trailerLength(int payloadLength) {
		return Mpa.padLength(TaggedHeader.LENGTH + payloadLength) + Mpa.CRC_FIELD;
	}

	/**
	 * Writes one untagged FPDU (a Send segment, or any untagged message whose payload is given
	 * as bytes).
	 * @param out target
	 * @param header the DDP/RDMAP header
	 * @param payload payload source
	 * @param offset first payload byte
	 * @param length payload bytes
	 * @return bytes written
	 */
	public int write(ByteBuffer out, UntaggedHeader header, ByteBuffer payload, int offset, int length) {
		return writeUntagged(out, header.last(), header.opcode(), header.invalidateStag(), header.queueNumber(),
				header.msn(), header.messageOffset(), payload, offset, length);
	}

	/**
	 * Writes one untagged FPDU from header fields, without creating a header object.
	 * @param out target
	 * @param last L flag
	 * @param opcode an untagged opcode
	 * @param invalidateStag RsvdULP[8:39]: STag to invalidate, or 0
	 * @param queueNumber QN
	 * @param msn message sequence number
	 * @param messageOffset message offset of this segment
	 * @param payload payload source
	 * @param offset first payload byte
	 * @param length payload bytes
	 * @return bytes written
	 */
	public int writeUntagged(ByteBuffer out, boolean last, RdmapOpcode opcode, int invalidateStag, int queueNumber,
			int msn, int messageOffset, ByteBuffer payload, int offset, int length) {
		if (opcode.tagged()) {
			throw new IllegalArgumentException(opcode + " is not an untagged RDMAP message (RFC 5040 §4.3)");
		}
		checkPayload(payload, offset, length);
		int start = begin(out, UntaggedHeader.LENGTH + length);
		UntaggedHeader.encode(out, last, opcode, invalidateStag, queueNumber, msn, messageOffset);
		return finish(out, start, payload, offset, length);
	}

	/**
	 * Writes an RDMA Read Request: one FPDU on queue 1, MO 0, L set (RFC 5040 §4.4).
	 * @param out target
	 * @param msn the Read Request's MSN on queue 1
	 * @param request the request
	 * @return bytes written
	 */
	public int writeReadRequest(ByteBuffer out, int msn, ReadRequest request) {
		int start = begin(out, ReadRequest.ULPDU_LENGTH);
		UntaggedHeader.encode(out, true, RdmapOpcode.RDMA_READ_REQUEST, 0, 1, msn, 0);
		request.encode(out);
		return finish(out, start, null, 0, 0);
	}

	/**
	 * Writes a Terminate: one FPDU on queue 2, MO 0, L set (RFC 5040 §4.8).
	 * @param out target
	 * @param msn the Terminate's MSN on queue 2 (1 for the first, and normally only, one)
	 * @param terminate the message
	 * @return bytes written
	 */
	public int writeTerminate(ByteBuffer out, int msn, TerminateMessage terminate) {
		int start = begin(out, UntaggedHeader.LENGTH + terminate.length());
		UntaggedHeader.encode(out, true, RdmapOpcode.TERMINATE, 0, 2, msn, 0);
		terminate.encode(out);
		return finish(out, start, null, 0, 0);
	}

	private static void checkPayload(ByteBuffer payload, int offset, int length) {
		if (length < 0 || (length > 0 && (offset < 0 || offset > payload.limit() - length))) {
			throw new IndexOutOfBoundsException("payload range [" + offset + ", " + offset + " + " + length
					+ ") is outside the payload buffer's limit " + (payload == null ? 0 : payload.limit()));
		}
	}

	private static int begin(ByteBuffer out, int ulpduLength) {
		if (ulpduLength > Mpa.MAX_ULPDU_LENGTH) {
			throw new IllegalArgumentException("ULPDU of " + ulpduLength + " bytes exceeds the 16-bit ULPDU Length field;"
					+ " segment the message with DdpSegmenter");
		}
		if (out.remaining() < Mpa.fpduLength(ulpduLength)) {
			throw new BufferOverflowException();
		}
		int start = out.position();
		Be.put16(out, ulpduLength);
		return start;
	}

	private int finish(ByteBuffer out, int start, ByteBuffer payload, int offset, int length) {
		if (length > 0) {
			out.put(out.position(), payload, offset, length);
			out.position(out.position() + length);
		}
		int pad = Mpa.padLength(out.position() - start - Mpa.LENGTH_FIELD);
		for (int i = 0; i < pad; i++) {
			out.put((byte) 0);
		}
		int crcIndex = out.position();
		int value = this.crc ? this.crcEngine.compute(out, start, crcIndex - start) : 0;
		Mpa.putCrc(out, crcIndex, value);
		out.position(crcIndex + Mpa.CRC_FIELD);
		return out.position() - start;
	}

}

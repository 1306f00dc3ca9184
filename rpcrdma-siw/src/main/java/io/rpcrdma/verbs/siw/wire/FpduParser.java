package io.rpcrdma.verbs.siw.wire;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Finds complete FPDUs (RFC 5044 §4) in a receive buffer that a TCP stream fills in arbitrary
 * pieces, checks their framing, CRC and DDP/RDMAP headers, and describes each as an
 * {@link Fpdu} view of the buffer: no copy and no allocation.
 * <p>
 * Use: read from the socket into the buffer, flip it, call {@link #next} until it returns
 * false, then compact the buffer and read again. A partial FPDU stays in the buffer untouched.
 * Every length the peer sends is checked before the parser waits for the bytes it announces:
 * longer than {@link Config#maxUlpduLength()}, or than the buffer can ever hold, is an error
 * at once. Stream-level rules (queue numbers, MSN and MO sequence, tagged continuity) are
 * {@link DdpReceiveValidator}'s.
 * <p>
 * Any exception means the stream is lost; its {@link IwarpWireException#terminateError()} is
 * what to report in a Terminate. Not thread-safe: one parser per connection.
 */
public final class FpduParser {

	private final Config config;

	private final Crc32cEngine crcEngine = new Crc32cEngine();

	/**
	 * @param config the negotiated and local settings
	 */
	public FpduParser(Config config) {
		this.config = Objects.requireNonNull(config, "config");
	}

	/** @return the settings */
	public Config config() {
		return this.config;
	}

	/**
	 * Parses the FPDU at the buffer's position, if it is complete.
	 * @param in the receive buffer, readable from position to limit
	 * @param into the view to fill
	 * @return true when an FPDU was parsed and the position moved past it; false when more
	 * bytes are needed (position unchanged)
	 * @throws IwarpWireException when the bytes break MPA, DDP or RDMAP framing rules
	 */
	public boolean next(ByteBuffer in, Fpdu into) {
		int start = in.position();
		int available = in.remaining();
		if (available < Mpa.LENGTH_FIELD) {
			return false;
		}
		int ulpduLength = Be.u16(in, start);
		checkLength(in, ulpduLength);
		int fpduLength = Mpa.fpduLength(ulpduLength);
		if (available < fpduLength) {
			// Without CRC nothing more trustworthy will come, so judge the control bytes now and
			// refuse garbage without waiting for the bytes its length announces.
			if (!this.config.crc() && available >= Mpa.LENGTH_FIELD + 2) {
				checkHeader(in, start, ulpduLength);
			}
			return false;
		}
		int pad = Mpa.padLength(ulpduLength);
		int crcIndex = start + Mpa.LENGTH_FIELD + ulpduLength + pad;
		int receivedCrc = Mpa.getCrc(in, crcIndex);
		if (this.config.crc()) {
			// RFC 5044 §4.4: the CRC covers the length field, ULPDU and pad; check it before
			// trusting any of them.
			int computed = this.crcEngine.compute(in, start, crcIndex - start);
			if (computed != receivedCrc) {
				throw new FpduCrcException(receivedCrc, computed);
			}
		}
		if (this.config.rejectNonZeroPad()) {
			for (int i = crcIndex - pad; i < crcIndex; i++) {
				if (in.get(i) != 0) {
					throw new FpduPaddingException(ulpduLength);
				}
			}
		}
		RdmapOpcode opcode = checkHeader(in, start, ulpduLength);
		into.set(in, start, ulpduLength, receivedCrc, Be.u8(in, start + Mpa.LENGTH_FIELD), opcode);
		in.position(start + fpduLength);
		return true;
	}

	/**
	 * Call when the peer closed the stream: any bytes left are an FPDU cut short.
	 * @param in the receive buffer after the last {@link #next} returned false
	 * @throws FpduTruncatedException when bytes remain
	 */
	public void endOfStream(ByteBuffer in) {
		int available = in.remaining();
		if (available > 0) {
			int needed = available >= Mpa.LENGTH_FIELD ? Mpa.fpduLength(Be.u16(in, in.position())) : 0;
			throw new FpduTruncatedException(available, needed);
		}
	}

	private void checkLength(ByteBuffer in, int ulpduLength) {
		if (ulpduLength < TaggedHeader.LENGTH) {
			throw new FpduLengthException(ulpduLength, "shorter than the smallest DDP header ("
					+ TaggedHeader.LENGTH + " bytes, RFC 5041 §5.2)");
		}
		if (ulpduLength > this.config.maxUlpduLength()) {
			throw new FpduLengthException(ulpduLength, "exceeds this receiver's maximum of "
					+ this.config.maxUlpduLength() + " bytes; the peer ignores the MULPDU or the stream lost its framing");
		}
		if (Mpa.fpduLength(ulpduLength) > in.capacity()) {
			throw new FpduLengthException(ulpduLength, "the FPDU needs " + Mpa.fpduLength(ulpduLength)
					+ " bytes but the receive buffer holds only " + in.capacity() + "; enlarge the receive buffer");
		}
	}

	private static RdmapOpcode checkHeader(ByteBuffer in, int start, int ulpduLength) {
		int ddp = Be.u8(in, start + Mpa.LENGTH_FIELD);
		RdmapOpcode opcode = DdpControl.check(ddp, Be.u8(in, start + Mpa.LENGTH_FIELD + 1));
		int headerLength = opcode.tagged() ? TaggedHeader.LENGTH : UntaggedHeader.LENGTH;
		if (ulpduLength < headerLength) {
			throw new FpduLengthException(ulpduLength, "shorter than the " + headerLength + "-byte DDP header of "
					+ opcode + " (RFC 5041 §5)");
		}
		boolean last = (ddp & DdpControl.LAST) != 0;
		if (opcode == RdmapOpcode.RDMA_READ_REQUEST) {
			// RFC 5040 §4.4: a Read Request is one DDP segment holding exactly its RDMAP header.
			if (ulpduLength < ReadRequest.ULPDU_LENGTH) {
				throw new FpduLengthException(ulpduLength,
						"shorter than a Read Request (" + ReadRequest.ULPDU_LENGTH + " bytes, RFC 5040 §4.4)");
			}
			if (ulpduLength > ReadRequest.ULPDU_LENGTH || !last) {
				throw new DdpHeaderException(TerminateError.DDP_UNTAGGED_MESSAGE_TOO_LONG, "a Read Request must be a"
						+ " single " + ReadRequest.ULPDU_LENGTH + "-byte DDP segment with L set (RFC 5040 §4.4) but this"
						+ " one has " + ulpduLength + " bytes" + (last ? "" : " and L clear"));
			}
		}
		else if (opcode == RdmapOpcode.TERMINATE) {
			if (ulpduLength < TerminateMessage.MIN_ULPDU_LENGTH) {
				throw new FpduLengthException(ulpduLength,
						"shorter than a Terminate (" + TerminateMessage.MIN_ULPDU_LENGTH + " bytes, RFC 5040 §4.8)");
			}
			if (!last) {
				throw new DdpHeaderException(TerminateError.DDP_UNTAGGED_MESSAGE_TOO_LONG,
						"a Terminate must be a single DDP segment with L set (RFC 5040 §4.8)");
			}
		}
		return opcode;
	}

	/**
	 * Receive-side settings.
	 *
	 * @param crc whether MPA CRC was negotiated; when false the CRC field is not checked
	 * @param maxUlpduLength largest ULPDU Length accepted, at most 65535; a receiver that knows
	 * the peer's MULPDU can hold it to that
	 * @param rejectNonZeroPad whether non-zero pad bytes are an error (RFC 5044 §4.2 has the
	 * sender zero them)
	 */
	public record Config(boolean crc, int maxUlpduLength, boolean rejectNonZeroPad) {

		public Config {
			if (maxUlpduLength < ReadRequest.ULPDU_LENGTH || maxUlpduLength > Mpa.MAX_ULPDU_LENGTH) {
				throw new IllegalArgumentException("maxUlpduLength must be in [" + ReadRequest.ULPDU_LENGTH + ", "
						+ Mpa.MAX_ULPDU_LENGTH + "] but was " + maxUlpduLength);
			}
		}

		/**
		 * Any ULPDU the 16-bit field can express, zero pad enforced.
		 * @param crc whether MPA CRC was negotiated
		 * @return the settings
		 */
		public static Config of(boolean crc) {
			return new Config(crc, Mpa.MAX_ULPDU_LENGTH, true);
		}

	}

}

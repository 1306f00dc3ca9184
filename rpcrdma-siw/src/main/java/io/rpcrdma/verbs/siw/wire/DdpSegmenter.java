package io.rpcrdma.verbs.siw.wire;

import java.nio.ByteBuffer;

/**
 * Cuts one RDMAP message into DDP segments that each fit an FPDU of at most MULPDU bytes of
 * ULPDU (RFC 5041 §5, RFC 5044 §4), and writes them with an {@link FpduWriter}.
 * <p>
 * Tagged messages advance the tagged offset by each segment's payload, untagged ones the
 * message offset, starting at 0; every segment of a message repeats its STag or queue and MSN;
 * only the last segment has L set. A zero-length message is one segment with L set.
 * <p>
 * Reusable: {@code start…} begins a new message, then {@link #writeNext} until
 * {@link #hasNext()} is false. No allocation per segment; not thread-safe.
 */
public final class DdpSegmenter {

	/** Smallest MULPDU accepted: room for the largest fixed ULPDU (a Read Request) and some payload. */
	public static final int MIN_MULPDU = 64;

	private final int mulpdu;

	private boolean tagged;

	private RdmapOpcode opcode;

	private int stag;

	private long taggedOffset;

	private int invalidateStag;

	private int msn;

	private int messageOffset;

	private ByteBuffer payload;

	private int offset;

	private int remaining;

	private boolean pending;

	/**
	 * @param mulpdu the sender's MULPDU, see {@link Mpa#mulpdu(int)}
	 */
	public DdpSegmenter(int mulpdu) {
		if (mulpdu < MIN_MULPDU || mulpdu > Mpa.MAX_ULPDU_LENGTH) {
			throw new IllegalArgumentException("MULPDU must be in [" + MIN_MULPDU + ", " + Mpa.MAX_ULPDU_LENGTH
					+ "] but was " + mulpdu);
		}
		this.mulpdu = mulpdu;
	}

	/** @return the MULPDU */
	public int mulpdu() {
		return this.mulpdu;
	}

	/**
	 * Begins a tagged message: RDMA Write or Read Response.
	 * @param opcode the opcode
	 * @param stag data sink STag
	 * @param taggedOffset data sink tagged offset of the first byte
	 * @param payload message source
	 * @param offset first byte of the message in {@code payload}
	 * @param length message length
	 */
	public void startTagged(RdmapOpcode opcode, int stag, long taggedOffset, ByteBuffer payload, int offset,
			int length) {
		if (!opcode.tagged()) {
			throw new IllegalArgumentException(opcode + " is not a tagged RDMAP message (RFC 5040 §4.3)");
		}
		start(true, opcode, payload, offset, length);
		this.stag = stag;
		this.taggedOffset = taggedOffset;
	}

	/**
	 * Begins a Send-type message on queue 0.
	 * @param opcode one of the four Sends
	 * @param invalidateStag STag to invalidate for the invalidating Sends, otherwise 0
	 * @param msn the message's MSN on queue 0
	 * @param payload message source
	 * @param offset first byte of the message in {@code payload}
	 * @param length message length
	 */
	public void startSend(RdmapOpcode opcode, int invalidateStag, int msn, ByteBuffer payload, int offset, int length) {
		if (!opcode.isSend()) {
			throw new IllegalArgumentException(opcode + " is not a Send; Read Requests and Terminates are single"
					+ " FPDUs written by FpduWriter");
		}
		if (!opcode.invalidates() && invalidateStag != 0) {
			throw new IllegalArgumentException(opcode + " does not invalidate; RsvdULP[8:39] must be zero");
		}
		start(false, opcode, payload, offset, length);
		this.invalidateStag = invalidateStag;
		this.msn = msn;
		this.messageOffset = 0;
	}

	private void start(boolean tagged, RdmapOpcode opcode, ByteBuffer payload, int offset, int length) {
		if (length < 0 || (length > 0 && (offset < 0 || offset > payload.limit() - length))) {
			throw new IndexOutOfBoundsException("message range [" + offset + ", " + offset + " + " + length
					+ ") is outside the payload buffer");
		}
		this.tagged = tagged;
		this.opcode = opcode;
		this.payload = payload;
		this.offset = offset;
		this.remaining = length;
		this.pending = true;
	}

	/** @return true while segments of the current message remain to be written */
	public boolean hasNext() {
		return this.pending;
	}

	/** @return payload bytes of the next segment */
	public int nextPayloadLength() {
		int header = this.tagged ? TaggedHeader.LENGTH : UntaggedHeader.LENGTH;
		return Math.min(this.remaining, this.mulpdu - header);
	}

	/** @return size of the next FPDU on the wire */
	public int nextFpduLength() {
		return Mpa.fpduLength((this.tagged ? TaggedHeader.LENGTH : UntaggedHeader.LENGTH) + nextPayloadLength());
	}

	/**
	 * Writes the next segment as one FPDU.
	 * @param writer the FPDU writer of the connection
	 * @param out target with {@link #nextFpduLength()} bytes of room
	 * @return bytes written
	 * @throws java.nio.BufferOverflowException when {@code out} lacks room; nothing is written
	 * and the segmenter stays on this segment
	 */
	public int writeNext(FpduWriter writer, ByteBuffer out) {
		if (!this.pending) {
			throw new IllegalStateException("no segment left; start a message first");
		}
		int length = nextPayloadLength();
		boolean last = length == this.remaining;
		int written;
		if (this.tagged) {
			written = writer.writeTagged(out, last, this.opcode, this.stag, this.taggedOffset, this.payload, this.offset,
					length);
			this.taggedOffset += length;
		}
		else {
			written = writer.writeUntagged(out, last, this.opcode, this.invalidateStag, this.opcode.queueNumber(),
					this.msn, this.messageOffset, this.payload, this.offset, length);
			this.messageOffset += length;
		}
		this.offset += length;
		this.remaining -= length;
		if (last) {
			this.pending = false;
			this.payload = null;
		}
		return written;
	}

}

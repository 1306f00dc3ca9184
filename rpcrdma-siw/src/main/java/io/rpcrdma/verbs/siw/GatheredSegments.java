package io.rpcrdma.verbs.siw;

import java.nio.ByteBuffer;

import io.rpcrdma.verbs.siw.wire.Mpa;
import io.rpcrdma.verbs.siw.wire.TaggedHeader;

/**
 * The segments of one gathering write of a tagged message (a Read Response, or an RDMA
 * Write): each one FPDU (RFC 5044 §4) as its header, a view of the registered memory it
 * carries and its trailer, and where the message stood before it, so that segments the
 * socket does not take are framed again later rather than copied aside. Made by a connection's
 * first such write and kept with it; used under the transmitter's lock.
 * <p>
 * Up to {@link #MOST} segments go in one write. Between two writes the peer's receive path
 * may drain its socket and go to sleep, and the next write must wake it: on a 2-core virtual
 * machine, with four segments per write, a 1 MiB Read Response woke the reader 9.4 times
 * (docs/performance.md, "Gathering writes of bulk data").
 */
final class GatheredSegments {

	/** Segments of one write: 1 MiB of payload at loopback's MULPDU of almost 64 KiB. */
	static final int MOST = 16;

	// An FPDU's header (MPA length and DDP/RDMAP tagged header) and trailer (pad, CRC).
	private static final int HEAD_BYTES = Mpa.LENGTH_FIELD + TaggedHeader.LENGTH;

	private static final int TRAILER_BYTES = 8;

	private final ByteBuffer[] buffers = new ByteBuffer[3 * MOST];

	private final ByteBuffer[] heads = new ByteBuffer[MOST];

	private final ByteBuffer[] trailers = new ByteBuffer[MOST];

	// Views of registered memory, made once per memory and kept while the memory is the same.
	private final ByteBuffer[] payloads = new ByteBuffer[MOST];

	private final ByteBuffer[] payloadSources = new ByteBuffer[MOST];

	private final int[] lengths = new int[MOST];

	// Where the message stood before each segment.
	private final long[] taggedOffsets = new long[MOST];

	private final int[] remainders = new int[MOST];

	private final long[] sourcePositions = new long[MOST];

	private int count;

	private long bytes;

	GatheredSegments() {
		// One direct buffer for every header and trailer; trailers stay zero (CRC off).
		ByteBuffer frames = ByteBuffer.allocateDirect(MOST * (HEAD_BYTES + TRAILER_BYTES));
		for (int i = 0; i < MOST; i++) {
			int at = i * (HEAD_BYTES + TRAILER_BYTES);
			this.heads[i] = frames.slice(at, HEAD_BYTES);
			this.trailers[i] = frames.slice(at + HEAD_BYTES, TRAILER_BYTES);
		}
	}

	/** Starts a write with no segment. */
	void clear() {
		this.count = 0;
		this.bytes = 0;
	}

	boolean full() {
		return this.count == MOST;
	}

	int count() {
		return this.count;
	}

	/** @return the buffers to write, three per segment, {@code 3 * count()} of them */
	ByteBuffer[] buffers() {
		return this.buffers;
	}

	/** @return the bytes of all segments, framing included */
	long bytes() {
		return this.bytes;
	}

	/**
	 * Records where the message stands before the next segment.
	 * @param taggedOffset the next segment's tagged offset
	 * @param remaining the message's bytes not yet framed
	 * @param sourcePosition where the next segment's payload starts in the message's source
	 * @return the next segment's header buffer, cleared, for the header to be written into
	 */
	ByteBuffer next(long taggedOffset, int remaining, long sourcePosition) {
		this.taggedOffsets[this.count] = taggedOffset;
		this.remainders[this.count] = remaining;
		this.sourcePositions[this.count] = sourcePosition;
		return this.heads[this.count].clear();
	}

	/**
	 * Adds the segment whose header {@link #next} gave, written and flipped.
	 * @param source the registered memory the payload is in
	 * @param offset where the payload starts in it
	 * @param length the payload's length
	 * @param trailerLength the pad and CRC after it
	 */
	void add(ByteBuffer source, int offset, int length, int trailerLength) {
		int slot = this.count;
		ByteBuffer head = this.heads[slot];
		if (this.payloadSources[slot] != source) {
			this.payloadSources[slot] = source;
			this.payloads[slot] = source.duplicate();
		}
		ByteBuffer payload = this.payloads[slot];
		payload.limit(offset + length).position(offset);
		ByteBuffer trailer = this.trailers[slot].clear().limit(trailerLength);
		this.buffers[3 * slot] = head;
		this.buffers[3 * slot + 1] = payload;
		this.buffers[3 * slot + 2] = trailer;
		int segment = head.remaining() + length + trailerLength;
		this.lengths[slot] = segment;
		this.bytes += segment;
		this.count++;
	}

	/** Replaces the payloads of the segments with as many zeros from {@code zeros}. */
	void zeroPayloads(ByteBuffer zeros) {
		for (int i = 0; i < this.count; i++) {
			ByteBuffer payload = this.buffers[3 * i + 1];
			this.buffers[3 * i + 1] = zeros.duplicate().limit(payload.remaining());
		}
	}

	/**
	 * After a write that stopped short: copies the unwritten rest of a segment the socket took
	 * in part into {@code out} (at most one FPDU).
	 * @param written the bytes of this write's segments the socket took
	 * @param out where the rest goes
	 * @return the first segment of which the socket took nothing, {@link #count()} if none:
	 * the message goes on from where it stood before that segment
	 */
	int keepPartlyWritten(long written, ByteBuffer out) {
		long end = 0;
		int slot = 0;
		while (slot < this.count && end + this.lengths[slot] <= written) {
			end += this.lengths[slot];
			slot++;
		}
		if (slot < this.count && written > end) {
			out.put(this.buffers[3 * slot]).put(this.buffers[3 * slot + 1]).put(this.buffers[3 * slot + 2]);
			slot++;
		}
		return slot;
	}

	long taggedOffset(int slot) {
		return this.taggedOffsets[slot];
	}

	int remaining(int slot) {
		return this.remainders[slot];
	}

	long sourcePosition(int slot) {
		return this.sourcePositions[slot];
	}

	/** Lets go of the views of registered memory: it may be deregistered and freed. */
	void releaseViews() {
		for (int i = 0; i < MOST; i++) {
			this.payloads[i] = null;
			this.payloadSources[i] = null;
			this.buffers[3 * i + 1] = null;
		}
	}

}

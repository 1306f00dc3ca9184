package io.rpcrdma.verbs.siw.wire;

import java.nio.ByteBuffer;

/**
 * The RDMAP header of an RDMA Read Request (RFC 5040 §4.4), which follows the untagged DDP
 * header on queue 1 and is the whole message: a Read Request carries no other payload.
 *
 * <pre>
 * | Data Sink STag (32) | Data Sink Tagged Offset (64) | RDMA Read Message Size (32) |
 * | Data Source STag (32) | Data Source Tagged Offset (64)                          |
 * </pre>
 *
 * @param sinkStag where the requester wants the data (its own memory)
 * @param sinkTaggedOffset offset in the sink
 * @param size bytes to read, an unsigned 32-bit value
 * @param sourceStag the responder's memory to read from
 * @param sourceTaggedOffset offset in the source
 */
public record ReadRequest(int sinkStag, long sinkTaggedOffset, int size, int sourceStag, long sourceTaggedOffset) {

	/** Wire size. */
	public static final int LENGTH = 28;

	/** ULPDU size of a Read Request: untagged DDP header plus this header. */
	public static final int ULPDU_LENGTH = UntaggedHeader.LENGTH + LENGTH;

	/** @return {@link #size()} as an unsigned value */
	public long sizeUnsigned() {
		return Integer.toUnsignedLong(this.size);
	}

	/**
	 * Writes the 28 bytes at the buffer's position.
	 * @param out target
	 */
	public void encode(ByteBuffer out) {
		Be.put32(out, this.sinkStag);
		Be.put64(out, this.sinkTaggedOffset);
		Be.put32(out, this.size);
		Be.put32(out, this.sourceStag);
		Be.put64(out, this.sourceTaggedOffset);
	}

	/**
	 * @param in source
	 * @param index index of the first byte (the sink STag)
	 * @return the header
	 */
	public static ReadRequest decode(ByteBuffer in, int index) {
		return new ReadRequest(Be.i32(in, index), Be.i64(in, index + 4), Be.i32(in, index + 12), Be.i32(in, index + 16),
				Be.i64(in, index + 20));
	}

}

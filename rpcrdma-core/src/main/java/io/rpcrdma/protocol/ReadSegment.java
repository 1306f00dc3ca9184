package io.rpcrdma.protocol;

import java.util.Objects;

/**
 * One entry of a read list (RFC 5666 §4.3 {@code xdr_read_chunk}, called a Read segment by
 * RFC 8166 §3.4.5): a segment the receiver pulls with RDMA Read, and the XDR position in the
 * RPC message where that data belongs. RFC 8166 §3.4.5 calls the read segments that share a
 * position one Read chunk; see {@link ReadChunk}.
 *
 * @param position the offset in bytes from the start of the RPC message (unsigned); zero
 * means the segment carries the RPC message itself (RFC 5666 §5.1)
 * @param target the memory to read
 */
public record ReadSegment(int position, RdmaSegment target) {

	public ReadSegment {
		Objects.requireNonNull(target, "target must not be null");
	}

	/** Shorthand for {@code new ReadSegment(position, new RdmaSegment(handle, length, offset))}. */
	public ReadSegment(int position, int handle, int length, long offset) {
		this(position, new RdmaSegment(handle, length, offset));
	}

	/** @return {@link #position()} as the unsigned value the wire carries */
	public long unsignedPosition() {
		return Integer.toUnsignedLong(this.position);
	}

}

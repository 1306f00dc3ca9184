package io.rpcrdma.protocol;

import java.util.List;

/**
 * A Write chunk (RFC 5666 §4.3 {@code xdr_write_chunk}, RFC 8166 §3.4.6): a counted array of
 * segments of the requester's memory that the responder fills by RDMA Write, in order and
 * without gaps (RFC 5666 §3.7). Used as an entry of the write list and as the reply chunk.
 * <p>
 * In a reply the responder returns the chunk with lengths rewritten to what it wrote
 * (RFC 5666 §3.6), so zero-length segments and even zero segments are well-formed.
 *
 * @param segments the segments, in fill order
 */
public record WriteChunk(List<RdmaSegment> segments) {

	public WriteChunk {
		segments = List.copyOf(segments);
	}

	/** Shorthand for a chunk of the given segments. */
	public static WriteChunk of(RdmaSegment... segments) {
		return new WriteChunk(List.of(segments));
	}

	/** @return the capacity of the chunk (or, in a reply, the bytes written): the unsigned sum of its lengths */
	public long totalLength() {
		long total = 0;
		for (RdmaSegment segment : this.segments) {
			total += segment.unsignedLength();
		}
		return total;
	}

}

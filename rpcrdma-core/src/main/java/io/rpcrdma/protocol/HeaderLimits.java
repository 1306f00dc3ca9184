package io.rpcrdma.protocol;

/**
 * What a receiver accepts in a transport header before it trusts it. The XDR of RFC 5666 §4.3
 * bounds none of its lists, so every bound here is a local policy; a header that exceeds one
 * is treated as malformed (ERR_CHUNK / RDMA_ERR_BAD_HEADER, RFC 5666 §4.2) rather than
 * decoded, and nothing is allocated from a count the peer sent before it has been checked
 * against these limits and against the bytes actually received.
 *
 * @param maxSegmentsPerChunk the most segments in one write chunk, in the reply chunk, or in
 * one run of read-list entries sharing a position
 * @param maxChunks the most read chunks plus write chunks in one header; a read chunk is
 * counted each time the read list's position changes, so read segments of one position that
 * are not adjacent count as more than one chunk (conservative, never less than the RFC 8166
 * §3.4.5 grouping)
 * @param maxTotalChunkBytes the most bytes all segments of all chunks of one header may
 * describe together, summed as unsigned 32-bit lengths without overflow
 * @param maxOptionalInfoLength the longest rdma_optinfo of a Version 2 RDMA_OPTIONAL
 */
public record HeaderLimits(int maxSegmentsPerChunk, int maxChunks, long maxTotalChunkBytes, int maxOptionalInfoLength) {

	/**
	 * 16 segments per chunk: a transport that registers each chunk with fast registration
	 * needs one segment per chunk, and the Linux client caps a whole header at 16 segments
	 * (RPCRDMA_MAX_HDR_SEGS); a 1 KiB Version 1 receive buffer cannot hold much more anyway.
	 */
	public static final int DEFAULT_MAX_SEGMENTS_PER_CHUNK = 16;

	/**
	 * 16 read plus write chunks: one per DDP-eligible argument or result plus a Position-Zero
	 * Read chunk; upper layers such as NFS (RFC 8267) use one or two.
	 */
	public static final int DEFAULT_MAX_CHUNKS = 16;

	/**
	 * 16 MiB across all chunks of one header: sixteen times the 1 MiB NFS read and write size
	 * common today, while keeping a hostile peer from making the receiver pull or expose
	 * gigabytes on the strength of one header.
	 */
	public static final long DEFAULT_MAX_TOTAL_CHUNK_BYTES = 16L * 1024 * 1024;

	/**
	 * 1 KiB of rdma_optinfo: the header including it must fit the peer's inline threshold
	 * (4 KiB by default in Version 2, draft-cel-nfsv4-rpcrdma-version-two-00 §2.3), and no
	 * standard option needs more.
	 */
	public static final int DEFAULT_MAX_OPTIONAL_INFO_LENGTH = 1024;

	/** The defaults above. */
	public static final HeaderLimits DEFAULTS = new HeaderLimits(DEFAULT_MAX_SEGMENTS_PER_CHUNK, DEFAULT_MAX_CHUNKS,
			DEFAULT_MAX_TOTAL_CHUNK_BYTES, DEFAULT_MAX_OPTIONAL_INFO_LENGTH);

	public HeaderLimits {
		if (maxSegmentsPerChunk < 1) {
			throw new IllegalArgumentException("maxSegmentsPerChunk must be at least 1 but was " + maxSegmentsPerChunk);
		}
		if (maxChunks < 1) {
			throw new IllegalArgumentException("maxChunks must be at least 1 but was " + maxChunks);
		}
		if (maxTotalChunkBytes < 0) {
			throw new IllegalArgumentException("maxTotalChunkBytes must not be negative but was " + maxTotalChunkBytes);
		}
		if (maxOptionalInfoLength < 0) {
			throw new IllegalArgumentException(
					"maxOptionalInfoLength must not be negative but was " + maxOptionalInfoLength);
		}
	}

}

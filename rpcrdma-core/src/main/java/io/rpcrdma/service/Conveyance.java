package io.rpcrdma.service;

/**
 * How a service call's data travelled, as far as the service layer chose it (RFC 8166 §3.5):
 * the transport may still send a call too long for the inline threshold as a Position-Zero
 * Read chunk, or a long reply in the Reply chunk, which its own counters report
 * ({@link io.rpcrdma.transport.TransportStats}): only the transport knows the negotiated
 * inline thresholds.
 */
public enum Conveyance {

	/** Arguments and results inline in RDMA_MSG. */
	INLINE,

	/** Bulk arguments in Read chunks (RFC 8166 §3.4.5). */
	READ_CHUNK,

	/** A bulk result in a Write chunk (RFC 8166 §3.4.6). */
	WRITE_CHUNK,

	/** Bulk arguments in Read chunks and a bulk result in a Write chunk. */
	READ_AND_WRITE_CHUNK;

	/**
	 * @param readChunks whether arguments went in Read chunks
	 * @param writeChunk whether the result went (or was offered to go) in a Write chunk
	 * @return the conveyance
	 */
	public static Conveyance of(boolean readChunks, boolean writeChunk) {
		if (readChunks) {
			return writeChunk ? READ_AND_WRITE_CHUNK : READ_CHUNK;
		}
		return writeChunk ? WRITE_CHUNK : INLINE;
	}

	/** @return the tag value, lower case with hyphens ({@code read-chunk}, …) */
	public String tag() {
		return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
	}

}

package io.rpcrdma.transport;

import io.rpcrdma.protocol.RdmaErrorHeader;

/**
 * The responder could not convey the reply to a call: it did not fit the requester's inline
 * threshold and the call offered no Reply chunk, or one too small. RFC 8166 §4.5.3 has the
 * responder answer such a call with RDMA_ERROR (ERR_CHUNK; RDMA_ERR_BAD_HEADER in Version 2)
 * at once, so the requester fails that one call here instead of at its timeout. Whether the
 * procedure ran is unknown. A responder that runs out of registered memory for a Write
 * chunk's data has no better answer than the same error, so when the call offered Write
 * chunks the message names that cause too.
 */
public final class ReplyTooLargeException extends RdmaErrorReceivedException {

	private static final long serialVersionUID = 1L;

	private final int inlineThreshold;

	private final int replyChunkOffered;

	/**
	 * @param error the RDMA_ERROR received
	 * @param inlineThreshold the most this requester receives inline
	 * @param replyChunkOffered the size of the Reply chunk the call offered, 0 for none
	 */
	public ReplyTooLargeException(RdmaErrorHeader error, int inlineThreshold, int replyChunkOffered) {
		this(error, inlineThreshold, replyChunkOffered, false);
	}

	/**
	 * @param error the RDMA_ERROR received
	 * @param inlineThreshold the most this requester receives inline
	 * @param replyChunkOffered the size of the Reply chunk the call offered, 0 for none
	 * @param writeChunksOffered whether the call offered Write chunks: a responder that cannot
	 * get memory for their data answers with the same error, so the message names both causes
	 */
	public ReplyTooLargeException(RdmaErrorHeader error, int inlineThreshold, int replyChunkOffered,
			boolean writeChunksOffered) {
		super(error, "The reply to XID 0x" + Integer.toHexString(error.xid()) + " was larger than the responder could "
				+ "convey: this requester receives at most " + inlineThreshold + " bytes inline and the call offered "
				+ ((replyChunkOffered == 0) ? "no Reply chunk" : "a Reply chunk of only " + replyChunkOffered + " bytes")
				+ " (the responder answered " + error + ", RFC 8166 §4.5.3); raise the call's maxReplySize "
				+ "(CallChunks.maxReplySize) to the largest reply expected so that a Reply chunk that holds it is offered"
				+ (writeChunksOffered ? ". The call also offered Write chunks, and a responder short of registered "
						+ "memory for their data answers the same way: if the reply should have fit, the responder was "
						+ "out of memory (its rpcrdma.memory.max-registered, or memory held by other calls), and the "
						+ "call may succeed when retried" : ""));
		this.inlineThreshold = inlineThreshold;
		this.replyChunkOffered = replyChunkOffered;
	}

	/** @return the most the requester received inline */
	public int inlineThreshold() {
		return this.inlineThreshold;
	}

	/** @return the Reply chunk offered, 0 for none */
	public int replyChunkOffered() {
		return this.replyChunkOffered;
	}

}

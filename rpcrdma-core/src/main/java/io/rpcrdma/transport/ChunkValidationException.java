package io.rpcrdma.transport;

/**
 * A received chunk list does not make sense (RFC 8166 §4.5.2: a responder answers with
 * ERR_CHUNK / RDMA_ERR_BAD_HEADER): positions out of order, unaligned or past the message,
 * segments that overlap, lengths that disagree with the XDR or exceed what was offered.
 */
public class ChunkValidationException extends TransportException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message what was wrong
	 */
	public ChunkValidationException(String message) {
		super(message);
	}

}

package io.rpcrdma.transport;

/**
 * What a responder does when a requester has more requests outstanding than it was granted
 * (RFC 5666 §3.3: the requester MUST NOT exceed the grant; the responder is not obliged to
 * serve the excess).
 */
public enum CreditViolationPolicy {

	/** Answer the excess request with RDMA_ERROR (ERR_CHUNK / RDMA_ERR_BAD_HEADER) and keep the connection. */
	REPLY_ERROR,

	/** Disconnect the requester. */
	DISCONNECT

}

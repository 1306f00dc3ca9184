package io.rpcrdma.verbs;

/**
 * The operation of a {@link SendWorkRequest} (verbs {@code ibv_wr_opcode}; RFC 5666 §2,
 * RFC 5040 RDMA message types).
 */
public enum SendOpcode {

	/**
	 * An RDMA Send: consumes the next pre-posted receive at the peer, in order; completes
	 * at both ends.
	 */
	SEND,

	/**
	 * An RDMA Send that also invalidates one STag of the peer's (RFC 5040 Send with
	 * Invalidate, verbs {@code IBV_WR_SEND_WITH_INV}); the peer's receive completion names
	 * the invalidated STag.
	 */
	SEND_WITH_INVALIDATE,

	/**
	 * An RDMA Write into the peer's registered memory; completes at the initiator only, and
	 * is placed before any later Send of the same queue pair is delivered (RFC 5666 §2).
	 */
	RDMA_WRITE,

	/**
	 * An RDMA Read from the peer's registered memory into local memory; completes at the
	 * requester only (RFC 5666 §2).
	 */
	RDMA_READ

}

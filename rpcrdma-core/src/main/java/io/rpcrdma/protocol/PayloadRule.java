package io.rpcrdma.protocol;

/**
 * Whether an RPC message (the RPC Payload Stream) follows a transport header in the same Send.
 */
public enum PayloadRule {

	/**
	 * An RPC message MUST follow, beginning with the XID (RFC 5666 §4.1 for RDMA_MSG and
	 * RDMA_MSGP; draft-cel-nfsv4-rpcrdma-version-two-00 §4.2 for RDMA_MSG).
	 */
	REQUIRED,

	/**
	 * An RPC message MAY follow (draft-cel-nfsv4-rpcrdma-version-two-00 §4.2 for RDMA_OPTIONAL;
	 * whether it does is defined by the option type).
	 */
	OPTIONAL,

	/**
	 * No RPC message follows (RFC 5666 §4.1 for RDMA_NOMSG, RDMA_DONE and RDMA_ERROR;
	 * draft-cel-nfsv4-rpcrdma-version-two-00 §4.2 "MUST NOT" for every other procedure).
	 */
	FORBIDDEN

}

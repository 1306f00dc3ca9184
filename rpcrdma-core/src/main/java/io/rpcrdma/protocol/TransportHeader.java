package io.rpcrdma.protocol;

/**
 * An RPC-over-RDMA transport header, Version 1 (RFC 5666 §4.3, RFC 8166 §4.1.2) or Version 2
 * (draft-cel-nfsv4-rpcrdma-version-two-00 §4.2), as an immutable value.
 * <p>
 * Every version begins with the same four 32-bit words, xid, vers, credit and proc, at fixed
 * offsets (RFC 5666 §4.1), which is what lets a receiver answer a version it does not speak.
 * The sub-interfaces sort the records by version ({@link Version1Header},
 * {@link Version2Header}), by whether they carry chunk lists ({@link ChunkedHeader}) and by
 * whether they report an error ({@link RdmaErrorHeader}). Encode with
 * {@link TransportHeaderEncoder}, decode and validate with {@link TransportHeaderDecoder}.
 */
public sealed interface TransportHeader permits Version1Header, Version2Header, ChunkedHeader, RdmaErrorHeader {

	/** @return rdma_xid, which mirrors the XID of the RPC message (RFC 5666 §4.1) */
	int xid();

	/** @return rdma_vers, the RPC-over-RDMA version of this header */
	int version();

	/**
	 * @return rdma_credit (unsigned): the credits a requester asks for or a responder grants
	 * (RFC 5666 §3.3)
	 */
	int credits();

	/** @return rdma_proc, the message type */
	int procedure();

	/** @return whether an RPC message follows this header in the same Send */
	PayloadRule payloadRule();

}

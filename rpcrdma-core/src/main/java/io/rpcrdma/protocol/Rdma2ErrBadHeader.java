package io.rpcrdma.protocol;

/**
 * Version 2 RDMA_ERROR with RDMA_ERR_BAD_HEADER (draft-cel-nfsv4-rpcrdma-version-two-00 §4.2),
 * the Version 2 counterpart of ERR_CHUNK: the peer's transport header could not be decoded.
 *
 * @param xid rdma_xid of the message that could not be decoded
 * @param credits rdma_credit (unsigned)
 */
public record Rdma2ErrBadHeader(int xid, int credits) implements Version2Header, RdmaErrorHeader {

	@Override
	public int errorCode() {
		return RpcRdmaConstants.RDMA2_ERR_BAD_HEADER;
	}

}

package io.rpcrdma.protocol;

/**
 * Version 1 RDMA_ERROR with ERR_CHUNK (RFC 5666 §4.2, §4.3): the peer's header or chunk lists
 * could not be decoded (RFC 8166 §4.5.2 XDR errors). The body after the error code is void.
 *
 * @param xid rdma_xid of the message that could not be decoded
 * @param credits rdma_credit (unsigned)
 */
public record RdmaErrChunk(int xid, int credits) implements Version1Header, RdmaErrorHeader {

	@Override
	public int errorCode() {
		return RpcRdmaConstants.ERR_CHUNK;
	}

}

package io.rpcrdma.protocol;

/**
 * Version 2 RDMA_ERROR with RDMA_ERR_INVAL_OPTION (draft-cel-nfsv4-rpcrdma-version-two-00 §3.1,
 * §4.2): the receiver does not recognize or support the rdma_opttype of an RDMA_OPTIONAL
 * message with this XID.
 *
 * @param xid rdma_xid of the RDMA_OPTIONAL message
 * @param credits rdma_credit (unsigned)
 */
public record Rdma2ErrInvalOption(int xid, int credits) implements Version2Header, RdmaErrorHeader {

	@Override
	public int errorCode() {
		return RpcRdmaConstants.RDMA2_ERR_INVAL_OPTION;
	}

}

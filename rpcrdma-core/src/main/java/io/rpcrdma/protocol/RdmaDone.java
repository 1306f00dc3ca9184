package io.rpcrdma.protocol;

/**
 * Version 1 RDMA_DONE (RFC 5666 §4.3, §3.8): the requester finished reading a reply's read
 * chunks, so the responder may release them. The body is void.
 * <p>
 * RFC 8166 §4.6.2 retires it together with read chunks in replies; it is kept so that RFC 5666
 * peers stay understood.
 *
 * @param xid rdma_xid of the reply whose chunks were read
 * @param credits rdma_credit (unsigned)
 */
public record RdmaDone(int xid, int credits) implements Version1Header {

	@Override
	public int procedure() {
		return RpcRdmaConstants.RDMA_DONE;
	}

	@Override
	public PayloadRule payloadRule() {
		return PayloadRule.FORBIDDEN;
	}

}

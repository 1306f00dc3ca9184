package io.rpcrdma.protocol;

import java.util.Objects;

/**
 * Version 1 RDMA_NOMSG (RFC 5666 §4.3 {@code rpc_rdma_header_nomsg}): chunk lists only. The
 * RPC message travels by RDMA: in a Position-Zero Read chunk (a Long Call, or an RFC 5666 §5.1
 * long reply) or written into the reply chunk (a Long Reply, RFC 5666 §5.2).
 *
 * @param xid rdma_xid
 * @param credits rdma_credit (unsigned)
 * @param chunkLists read list, write list and reply chunk
 */
public record RdmaNomsg(int xid, int credits, ChunkLists chunkLists) implements Version1Header, ChunkedHeader {

	public RdmaNomsg {
		Objects.requireNonNull(chunkLists, "chunkLists must not be null");
	}

	@Override
	public int procedure() {
		return RpcRdmaConstants.RDMA_NOMSG;
	}

	@Override
	public PayloadRule payloadRule() {
		return PayloadRule.FORBIDDEN;
	}

}

package io.rpcrdma.protocol;

import java.util.Objects;

/**
 * Version 1 RDMA_MSG (RFC 5666 §4.3 {@code rpc_rdma_header}): chunk lists, then the RPC call
 * or reply, beginning with an XID equal to {@code xid} (RFC 5666 §4.1).
 *
 * @param xid rdma_xid
 * @param credits rdma_credit, requested or granted (unsigned)
 * @param chunkLists read list, write list and reply chunk
 */
public record RdmaMsg(int xid, int credits, ChunkLists chunkLists) implements Version1Header, ChunkedHeader {

	public RdmaMsg {
		Objects.requireNonNull(chunkLists, "chunkLists must not be null; use ChunkLists.EMPTY");
	}

	@Override
	public int procedure() {
		return RpcRdmaConstants.RDMA_MSG;
	}

	@Override
	public PayloadRule payloadRule() {
		return PayloadRule.REQUIRED;
	}

}

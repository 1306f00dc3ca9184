package io.rpcrdma.protocol;

import java.util.Objects;

/**
 * Version 2 RDMA_NOMSG (draft-cel-nfsv4-rpcrdma-version-two-00 §4.2): chunk lists only; an RPC
 * Payload Stream MUST NOT follow, the RPC message travels in a Position-Zero Read chunk or the
 * reply chunk.
 *
 * @param xid rdma_xid
 * @param credits rdma_credit (unsigned)
 * @param chunkLists read list, write list and reply chunk
 */
public record Rdma2Nomsg(int xid, int credits, ChunkLists chunkLists) implements Version2Header, ChunkedHeader {

	public Rdma2Nomsg {
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

package io.rpcrdma.protocol;

import java.util.Objects;

/**
 * Version 2 RDMA_MSG (draft-cel-nfsv4-rpcrdma-version-two-00 §4.2, {@code rdma_chunks}): chunk
 * lists, then an RPC Payload Stream, which MUST follow.
 *
 * @param xid rdma_xid
 * @param credits rdma_credit (unsigned)
 * @param chunkLists read list, write list and reply chunk
 */
public record Rdma2Msg(int xid, int credits, ChunkLists chunkLists) implements Version2Header, ChunkedHeader {

	public Rdma2Msg {
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

package io.rpcrdma.protocol;

import java.util.Objects;

/**
 * Version 1 RDMA_MSGP (RFC 5666 §4.3 {@code rpc_rdma_header_padded}): like RDMA_MSG with the
 * padding parameters rdma_align and rdma_thresh (RFC 5666 §3.9) before the chunk lists.
 * <p>
 * RFC 8166 §4.6.1 tells senders not to use RDMA_MSGP; it is decoded so that RFC 5666 peers
 * stay understood, and encodable so that such a peer can be tested against.
 *
 * @param xid rdma_xid
 * @param credits rdma_credit (unsigned)
 * @param align rdma_align, the padding alignment (unsigned)
 * @param threshold rdma_thresh, the opaque size at or above which padding applies (unsigned)
 * @param chunkLists read list, write list and reply chunk
 */
public record RdmaMsgp(int xid, int credits, int align, int threshold, ChunkLists chunkLists)
		implements Version1Header, ChunkedHeader {

	public RdmaMsgp {
		Objects.requireNonNull(chunkLists, "chunkLists must not be null; use ChunkLists.EMPTY");
	}

	@Override
	public int procedure() {
		return RpcRdmaConstants.RDMA_MSGP;
	}

	@Override
	public PayloadRule payloadRule() {
		return PayloadRule.REQUIRED;
	}

}

package io.rpcrdma.protocol;

/**
 * A transport header that carries chunk lists: Version 1 RDMA_MSG, RDMA_NOMSG and RDMA_MSGP
 * (RFC 5666 §4.3) and Version 2 RDMA_MSG and RDMA_NOMSG
 * (draft-cel-nfsv4-rpcrdma-version-two-00 §4.2). A transport can marshal and unmarshal chunks
 * through this one view whatever the version.
 */
public sealed interface ChunkedHeader extends TransportHeader permits RdmaMsg, RdmaNomsg, RdmaMsgp, Rdma2Msg, Rdma2Nomsg {

	/** @return the read list, write list and reply chunk */
	ChunkLists chunkLists();

}

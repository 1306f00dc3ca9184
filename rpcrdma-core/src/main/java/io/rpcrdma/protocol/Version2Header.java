package io.rpcrdma.protocol;

/**
 * A Version 2 transport header (draft-cel-nfsv4-rpcrdma-version-two-00 §4.2):
 * {@link Rdma2Msg}, {@link Rdma2Nomsg}, {@link Rdma2Optional}, {@link Rdma2ErrBadHeader} or
 * {@link Rdma2ErrInvalOption}. An RDMA_ERROR with RDMA_ERR_VERS is an {@link ErrVers}, whose
 * layout every version shares. RDMA_MSGP and RDMA_DONE are reserved in Version 2 and have no
 * record.
 */
public sealed interface Version2Header extends TransportHeader
		permits Rdma2Msg, Rdma2Nomsg, Rdma2Optional, Rdma2ErrBadHeader, Rdma2ErrInvalOption {

	@Override
	default int version() {
		return RpcRdmaConstants.VERSION_2;
	}

}

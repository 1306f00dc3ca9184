package io.rpcrdma.protocol;

/**
 * A Version 1 transport header (RFC 5666 §4.3, RFC 8166 §4.1.2): {@link RdmaMsg},
 * {@link RdmaNomsg}, {@link RdmaMsgp}, {@link RdmaDone} or {@link RdmaErrChunk}. An RDMA_ERROR
 * with ERR_VERS is an {@link ErrVers}, whose layout every version shares.
 */
public sealed interface Version1Header extends TransportHeader
		permits RdmaMsg, RdmaNomsg, RdmaMsgp, RdmaDone, RdmaErrChunk {

	@Override
	default int version() {
		return RpcRdmaConstants.VERSION_1;
	}

}

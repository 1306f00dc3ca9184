package io.rpcrdma.protocol;

/**
 * An RDMA_ERROR transport header (RFC 5666 §4.3 {@code rpc_rdma_error},
 * draft-cel-nfsv4-rpcrdma-version-two-00 §4.2 {@code rpcrdma2_error}). No RPC message follows
 * it, and a receiver never answers one with another error.
 */
public sealed interface RdmaErrorHeader extends TransportHeader
		permits ErrVers, RdmaErrChunk, Rdma2ErrBadHeader, Rdma2ErrInvalOption {

	/** @return rdma_err, the error code */
	int errorCode();

	@Override
	default int procedure() {
		return RpcRdmaConstants.RDMA_ERROR;
	}

	@Override
	default PayloadRule payloadRule() {
		return PayloadRule.FORBIDDEN;
	}

}

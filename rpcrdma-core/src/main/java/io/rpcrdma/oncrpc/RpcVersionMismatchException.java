package io.rpcrdma.oncrpc;

import java.util.Optional;

/**
 * A call's {@code rpcvers} is not 2. RFC 5531 §9 requires the server to answer with
 * MSG_DENIED RPC_MISMATCH and the versions it supports (2 to 2), which {@link #reply()}
 * gives. The rest of the call is not decoded: its layout is unknown.
 */
public final class RpcVersionMismatchException extends OncRpcException {

	private static final long serialVersionUID = 1L;

	private final int rpcVersion;

	RpcVersionMismatchException(int xid, int rpcVersion) {
		super(xid, "ONC RPC call xid " + xidText(xid) + " has rpcvers " + Integer.toUnsignedString(rpcVersion)
				+ " but only version " + RpcCall.RPC_VERSION
				+ " exists (RFC 5531 §9); answer with the RPC_MISMATCH reply this exception carries", null);
		this.rpcVersion = rpcVersion;
	}

	/**
	 * @return the {@code rpcvers} the call carried
	 */
	public int rpcVersion() {
		return this.rpcVersion;
	}

	/**
	 * @return MSG_DENIED RPC_MISMATCH(2, 2) for this call's xid
	 */
	@Override
	public Optional<RpcReply> reply() {
		return Optional.of(RpcReply.rpcMismatch(xid(), RpcCall.RPC_VERSION, RpcCall.RPC_VERSION));
	}

}

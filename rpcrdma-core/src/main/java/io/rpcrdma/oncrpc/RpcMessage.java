package io.rpcrdma.oncrpc;

/**
 * An ONC RPC message, the {@code rpc_msg} of RFC 5531 §9: a transaction id and either a
 * {@link RpcCall call} or a {@link RpcReply reply}.
 */
public sealed interface RpcMessage permits RpcCall, RpcReply {

	/** RFC 5531 §9 {@code msg_type} CALL. */
	int CALL = 0;

	/** RFC 5531 §9 {@code msg_type} REPLY. */
	int REPLY = 1;

	/**
	 * The transaction id, an {@code unsigned int} held as its 32 bits. A reply carries the xid
	 * of the call it answers; the xid alone matches them (RFC 5531 §9).
	 * @return the xid
	 */
	int xid();

	/**
	 * @return {@link #CALL} or {@link #REPLY}
	 */
	int messageType();

}

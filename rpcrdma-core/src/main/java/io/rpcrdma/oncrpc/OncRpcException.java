package io.rpcrdma.oncrpc;

import java.util.Optional;

/**
 * Base type of what {@link RpcMessageCodec} reports about a message it cannot decode once it
 * has read the message's xid, so a client can fail the matching call at once and a server
 * can answer or log it. (A message too short to hold an xid fails with
 * {@link io.rpcrdma.xdr.XdrTruncatedException}.)
 * <p>
 * Where RFC 5531 requires the server to answer a bad call rather than drop it,
 * {@link #reply()} gives the reply to send.
 */
public abstract class OncRpcException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final int xid;

	protected OncRpcException(int xid, String message, Throwable cause) {
		super(message, cause);
		this.xid = xid;
	}

	/**
	 * @return the xid of the message that could not be decoded
	 */
	public int xid() {
		return this.xid;
	}

	/**
	 * Returns the reply a server must send for this error, if RFC 5531 requires one; when
	 * empty, the message is dropped (RFC 5531 defines no reply to a message that is not a
	 * well-formed call).
	 * @return the reply, or empty
	 */
	public Optional<RpcReply> reply() {
		return Optional.empty();
	}

	static String xidText(int xid) {
		return String.format("0x%08x", xid);
	}

}

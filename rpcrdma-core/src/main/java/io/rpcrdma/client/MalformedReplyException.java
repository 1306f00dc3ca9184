package io.rpcrdma.client;

/**
 * The reply to a call could not be decoded (for example an {@code accept_stat} RFC 5531 does
 * not define, or a truncated header). The cause is the decoding error.
 */
public final class MalformedReplyException extends RpcCallException {

	private static final long serialVersionUID = 1L;

	public MalformedReplyException(RemoteCall call, Throwable cause) {
		super(call, "The reply to " + call + " is malformed: " + cause.getMessage(), cause);
	}

}

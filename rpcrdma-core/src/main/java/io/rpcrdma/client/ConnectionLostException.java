package io.rpcrdma.client;

/**
 * The connection carrying the call was lost before its reply arrived. Whether the server
 * executed the call is unknown; an idempotent call may be retried (see {@link RetryPolicy}).
 */
public final class ConnectionLostException extends RpcCallException {

	private static final long serialVersionUID = 1L;

	public ConnectionLostException(RemoteCall call, Throwable cause) {
		super(call, "The connection to " + call.endpoint() + " was lost before " + call + " was answered"
				+ ((cause != null && cause.getMessage() != null) ? ": " + cause.getMessage() : "")
				+ "; the call may or may not have executed", cause);
	}

}

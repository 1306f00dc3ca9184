package io.rpcrdma.client;

/**
 * The connection carrying the call was lost before its reply arrived. Whether the server
 * executed the call is unknown; an idempotent call may be retried (see {@link RetryPolicy}).
 *
 * <p>When the transport closes, the cause is the transport's
 * {@link io.rpcrdma.transport.TransportClosedException} (or whatever failure closed it); this
 * exception adds the call and endpoint the transport does not know.
 */
public final class ConnectionLostException extends RpcCallException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param call the call that lost its connection
	 * @param cause why the connection went down, typically a
	 *        {@link io.rpcrdma.transport.TransportClosedException}; may be {@code null}
	 */
	public ConnectionLostException(RemoteCall call, Throwable cause) {
		super(call, "The connection to " + call.endpoint() + " was lost before " + call + " was answered"
				+ ((cause != null && cause.getMessage() != null) ? ": " + cause.getMessage() : "")
				+ "; the call may or may not have executed", cause);
	}

}

package io.rpcrdma.client;

/**
 * The server failed for a reason not attributable to the call (MSG_ACCEPTED SYSTEM_ERR,
 * RFC 5531 §9): its handler threw, or it was too busy or shutting down and refused the call.
 */
public final class RemoteSystemErrorException extends RpcCallException {

	private static final long serialVersionUID = 1L;

	public RemoteSystemErrorException(RemoteCall call) {
		super(call, "The server at " + call.endpoint() + " failed to execute " + call
				+ " (SYSTEM_ERR): it was overloaded or shutting down, or the procedure failed; the server's log has the cause",
				null);
	}

}

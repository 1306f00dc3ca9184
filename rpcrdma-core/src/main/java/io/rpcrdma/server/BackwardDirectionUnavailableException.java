package io.rpcrdma.server;

/**
 * A call back to a client was asked for on a connection that has no backward direction
 * (RFC 8167): the server was started without backward-direction credits, or the call did not
 * arrive over RPC-over-RDMA.
 */
public class BackwardDirectionUnavailableException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message what is missing and how to get it
	 */
	public BackwardDirectionUnavailableException(String message) {
		super(message);
	}

}

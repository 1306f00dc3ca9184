package io.rpcrdma.transport;

/**
 * The connection failed or was closed while the RPC was outstanding; whether the peer
 * executed it is unknown. Retry on a new connection if the procedure is idempotent.
 */
public class ConnectionLostException extends TransportException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message why the connection went down
	 */
	public ConnectionLostException(String message) {
		super(message);
	}

}

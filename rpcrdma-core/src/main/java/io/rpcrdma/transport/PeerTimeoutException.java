package io.rpcrdma.transport;

/**
 * The peer left work this side posted on the connection unanswered for longer than
 * {@link PeerLimits#operationTimeout()}, most often an RDMA Read of its own chunk: the
 * connection was failed so that what it held (bulk buffers, credits, receive buffers) comes
 * back, and the other connections are not kept waiting for it.
 */
public class PeerTimeoutException extends TransportClosedException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message what was left unanswered, for how long, and which setting bounds it
	 */
	public PeerTimeoutException(String message) {
		super(message);
	}

}

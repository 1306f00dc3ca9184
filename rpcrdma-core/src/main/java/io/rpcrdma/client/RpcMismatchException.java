package io.rpcrdma.client;

/**
 * The server does not accept ONC RPC version 2 (MSG_DENIED RPC_MISMATCH, RFC 5531 §9).
 */
public final class RpcMismatchException extends RpcCallException {

	private static final long serialVersionUID = 1L;

	private final int low;

	private final int high;

	public RpcMismatchException(RemoteCall call, int low, int high) {
		super(call, "The server at " + call.endpoint() + " rejected " + call + " with RPC_MISMATCH: it supports RPC versions "
				+ Integer.toUnsignedString(low) + " to " + Integer.toUnsignedString(high)
				+ " but not 2 (RFC 5531); it is not an ONC RPC server of this kind", null);
		this.low = low;
		this.high = high;
	}

	/**
	 * @return the lowest RPC version the server supports
	 */
	public int low() {
		return this.low;
	}

	/**
	 * @return the highest RPC version the server supports
	 */
	public int high() {
		return this.high;
	}

	@Override
	public boolean notExecuted() {
		return true;
	}

}

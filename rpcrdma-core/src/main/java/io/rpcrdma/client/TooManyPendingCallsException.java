package io.rpcrdma.client;

/**
 * A call was not sent because its connection already has the configured maximum of calls
 * awaiting replies.
 */
public final class TooManyPendingCallsException extends RpcCallException {

	private static final long serialVersionUID = 1L;

	private final int limit;

	public TooManyPendingCallsException(RemoteCall call, int limit) {
		super(call, "Not sending " + call + ": " + limit + " calls to " + call.endpoint()
				+ " already await replies, the configured maximum; wait for some to complete, add connections, or raise the limit",
				null);
		this.limit = limit;
	}

	/**
	 * @return the maximum number of pending calls
	 */
	public int limit() {
		return this.limit;
	}

	@Override
	public boolean notExecuted() {
		return true;
	}

}

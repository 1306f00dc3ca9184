package io.rpcrdma.client;

import io.rpcrdma.oncrpc.ProgramNumberText;

/**
 * A call was not sent because its connection already has the configured maximum of calls
 * awaiting replies. No xid was allocated: {@link #call()} has xid 0.
 */
public final class TooManyPendingCallsException extends RpcCallException {

	private static final long serialVersionUID = 1L;

	private final int limit;

	public TooManyPendingCallsException(RemoteCall call, int limit) {
		// No xid was allocated for the refused call, so its description leaves the xid out.
		super(call, "Not sending program " + ProgramNumberText.hex(call.program()) + " version "
				+ Integer.toUnsignedString(call.version()) + " procedure " + Integer.toUnsignedString(call.procedure())
				+ " to " + call.endpoint() + ": " + limit + " calls to " + call.endpoint()
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

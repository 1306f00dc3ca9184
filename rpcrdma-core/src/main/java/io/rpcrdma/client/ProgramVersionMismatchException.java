package io.rpcrdma.client;

import io.rpcrdma.oncrpc.ProgramNumberText;

/**
 * The server exports the program, but not in the called version (MSG_ACCEPTED PROG_MISMATCH,
 * RFC 5531 §9); {@link #low()} and {@link #high()} give the versions it supports.
 */
public final class ProgramVersionMismatchException extends RpcCallException {

	private static final long serialVersionUID = 1L;

	private final int low;

	private final int high;

	public ProgramVersionMismatchException(RemoteCall call, int low, int high) {
		super(call, "Program " + ProgramNumberText.hex(call.program()) + " version "
				+ Integer.toUnsignedString(call.version()) + " is not supported at " + call.endpoint()
				+ ", which supports versions " + Integer.toUnsignedString(low) + " to " + Integer.toUnsignedString(high)
				+ " (PROG_MISMATCH for " + call + "); call a version in that range", null);
		this.low = low;
		this.high = high;
	}

	/**
	 * @return the lowest version the server supports (unsigned)
	 */
	public int low() {
		return this.low;
	}

	/**
	 * @return the highest version the server supports (unsigned)
	 */
	public int high() {
		return this.high;
	}

	@Override
	public boolean notExecuted() {
		return true;
	}

}

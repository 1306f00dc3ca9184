package io.rpcrdma.client;

import io.rpcrdma.oncrpc.ProgramNumberText;

/**
 * The server does not export the program (MSG_ACCEPTED PROG_UNAVAIL, RFC 5531 §9).
 */
public final class ProgramUnavailableException extends RpcCallException {

	private static final long serialVersionUID = 1L;

	public ProgramUnavailableException(RemoteCall call) {
		super(call, "Program " + ProgramNumberText.hex(call.program()) + " is not available at " + call.endpoint()
				+ " (PROG_UNAVAIL for " + call + "); check the program number and that the server exports it", null);
	}

	@Override
	public boolean notExecuted() {
		return true;
	}

}

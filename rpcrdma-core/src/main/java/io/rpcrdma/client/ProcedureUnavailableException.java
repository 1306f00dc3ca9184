package io.rpcrdma.client;

import io.rpcrdma.oncrpc.ProgramNumberText;

/**
 * The program version has no such procedure (MSG_ACCEPTED PROC_UNAVAIL, RFC 5531 §9).
 */
public final class ProcedureUnavailableException extends RpcCallException {

	private static final long serialVersionUID = 1L;

	public ProcedureUnavailableException(RemoteCall call) {
		super(call, "Procedure " + Integer.toUnsignedString(call.procedure()) + " is not available in program "
				+ ProgramNumberText.hex(call.program()) + " version " + Integer.toUnsignedString(call.version())
				+ " at " + call.endpoint() + " (PROC_UNAVAIL for " + call
				+ "); the server implements an older or different interface for this version", null);
	}

	@Override
	public boolean notExecuted() {
		return true;
	}

}

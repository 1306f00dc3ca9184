package io.rpcrdma.client;

import io.rpcrdma.oncrpc.AcceptStatus;
import io.rpcrdma.oncrpc.AcceptedReply;
import io.rpcrdma.oncrpc.DeniedReply;
import io.rpcrdma.oncrpc.RpcReply;

/**
 * Turns a reply header into success or the {@link RpcCallException} for its status
 * (RFC 5531 §9): PROG_UNAVAIL, PROG_MISMATCH, PROC_UNAVAIL, GARBAGE_ARGS, SYSTEM_ERR,
 * RPC_MISMATCH and AUTH_ERROR each have their own exception.
 */
public final class ReplyInterpreter {

	private ReplyInterpreter() {
	}

	/**
	 * Returns the failure a reply reports.
	 * @param call the call answered
	 * @param reply its reply header
	 * @return {@code null} for MSG_ACCEPTED SUCCESS (the results follow), else the exception
	 */
	public static RpcCallException failureOf(RemoteCall call, RpcReply reply) {
		if (reply.body() instanceof AcceptedReply accepted) {
			AcceptStatus status = accepted.status();
			if (status instanceof AcceptStatus.Success) {
				return null;
			}
			if (status instanceof AcceptStatus.ProgUnavail) {
				return new ProgramUnavailableException(call);
			}
			if (status instanceof AcceptStatus.ProgMismatch mismatch) {
				return new ProgramVersionMismatchException(call, mismatch.low(), mismatch.high());
			}
			if (status instanceof AcceptStatus.ProcUnavail) {
				return new ProcedureUnavailableException(call);
			}
			if (status instanceof AcceptStatus.GarbageArgs) {
				return new RemoteGarbageArgumentsException(call);
			}
			return new RemoteSystemErrorException(call);
		}
		if (reply.body() instanceof DeniedReply.RpcMismatch mismatch) {
			return new RpcMismatchException(call, mismatch.low(), mismatch.high());
		}
		return new AuthenticationException(call, ((DeniedReply.AuthError) reply.body()).status());
	}

	/**
	 * Returns normally for a SUCCESS reply, else throws the exception for its status.
	 * @param call the call answered
	 * @param reply its reply header
	 * @throws RpcCallException the failure the reply reports
	 */
	public static void check(RemoteCall call, RpcReply reply) {
		RpcCallException failure = failureOf(call, reply);
		if (failure != null) {
			throw failure;
		}
	}

}

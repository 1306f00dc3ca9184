package io.rpcrdma.oncrpc;

import java.util.Objects;

/**
 * An ONC RPC reply header: the {@code reply_body} of RFC 5531 §9 with its xid. For a
 * {@link AcceptStatus.Success successful} reply the procedure results follow the header in
 * the buffer; they are not part of this record.
 *
 * @param xid the transaction id of the call this reply answers
 * @param body accepted or denied, with its status
 */
public record RpcReply(int xid, ReplyBody body) implements RpcMessage {

	private static final AcceptedReply SUCCESS = new AcceptedReply(AuthNone.INSTANCE, AcceptStatus.SUCCESS);

	private static final AcceptedReply PROG_UNAVAIL = new AcceptedReply(AuthNone.INSTANCE,
			AcceptStatus.PROG_UNAVAIL);

	private static final AcceptedReply PROC_UNAVAIL = new AcceptedReply(AuthNone.INSTANCE,
			AcceptStatus.PROC_UNAVAIL);

	private static final AcceptedReply GARBAGE_ARGS = new AcceptedReply(AuthNone.INSTANCE,
			AcceptStatus.GARBAGE_ARGS);

	private static final AcceptedReply SYSTEM_ERR = new AcceptedReply(AuthNone.INSTANCE, AcceptStatus.SYSTEM_ERR);

	public RpcReply {
		Objects.requireNonNull(body, "body");
	}

	/**
	 * MSG_ACCEPTED SUCCESS with an AUTH_NONE verifier; the caller writes the results next.
	 * @param xid the call's xid
	 * @return the reply header
	 */
	public static RpcReply success(int xid) {
		return new RpcReply(xid, SUCCESS);
	}

	/**
	 * MSG_ACCEPTED SUCCESS with the given verifier; the caller writes the results next.
	 * @param xid the call's xid
	 * @param verifier the server's verifier
	 * @return the reply header
	 */
	public static RpcReply success(int xid, OpaqueAuth verifier) {
		return new RpcReply(xid, new AcceptedReply(verifier, AcceptStatus.SUCCESS));
	}

	/**
	 * MSG_ACCEPTED PROG_UNAVAIL: the program is not exported here.
	 * @param xid the call's xid
	 * @return the reply header
	 */
	public static RpcReply progUnavail(int xid) {
		return new RpcReply(xid, PROG_UNAVAIL);
	}

	/**
	 * MSG_ACCEPTED PROG_MISMATCH: the program is exported but not in the called version.
	 * @param xid the call's xid
	 * @param low the lowest version supported
	 * @param high the highest version supported
	 * @return the reply header
	 */
	public static RpcReply progMismatch(int xid, int low, int high) {
		return new RpcReply(xid, new AcceptedReply(AuthNone.INSTANCE, new AcceptStatus.ProgMismatch(low, high)));
	}

	/**
	 * MSG_ACCEPTED PROC_UNAVAIL: the program version has no such procedure.
	 * @param xid the call's xid
	 * @return the reply header
	 */
	public static RpcReply procUnavail(int xid) {
		return new RpcReply(xid, PROC_UNAVAIL);
	}

	/**
	 * MSG_ACCEPTED GARBAGE_ARGS: the procedure cannot decode its parameters.
	 * @param xid the call's xid
	 * @return the reply header
	 */
	public static RpcReply garbageArgs(int xid) {
		return new RpcReply(xid, GARBAGE_ARGS);
	}

	/**
	 * MSG_ACCEPTED SYSTEM_ERR: an error on the server not attributable to the call, such as
	 * memory exhaustion.
	 * @param xid the call's xid
	 * @return the reply header
	 */
	public static RpcReply systemErr(int xid) {
		return new RpcReply(xid, SYSTEM_ERR);
	}

	/**
	 * MSG_DENIED RPC_MISMATCH: the call's RPC version is not supported.
	 * @param xid the call's xid
	 * @param low the lowest RPC version supported (2)
	 * @param high the highest RPC version supported (2)
	 * @return the reply header
	 */
	public static RpcReply rpcMismatch(int xid, int low, int high) {
		return new RpcReply(xid, new DeniedReply.RpcMismatch(low, high));
	}

	/**
	 * MSG_DENIED AUTH_ERROR: the server refuses to authenticate the caller.
	 * @param xid the call's xid
	 * @param status why
	 * @return the reply header
	 */
	public static RpcReply authError(int xid, AuthStat status) {
		return new RpcReply(xid, new DeniedReply.AuthError(status));
	}

	/**
	 * Returns an accepted reply body, shared when it holds no data beyond constants, so the
	 * decoder allocates nothing for the common replies.
	 */
	static AcceptedReply accepted(OpaqueAuth verifier, AcceptStatus status) {
		if (verifier instanceof AuthNone) {
			if (status instanceof AcceptStatus.Success) {
				return SUCCESS;
			}
			if (status instanceof AcceptStatus.ProgUnavail) {
				return PROG_UNAVAIL;
			}
			if (status instanceof AcceptStatus.ProcUnavail) {
				return PROC_UNAVAIL;
			}
			if (status instanceof AcceptStatus.GarbageArgs) {
				return GARBAGE_ARGS;
			}
			if (status instanceof AcceptStatus.SystemErr) {
				return SYSTEM_ERR;
			}
		}
		return new AcceptedReply(verifier, status);
	}

	@Override
	public int messageType() {
		return REPLY;
	}

	/**
	 * @return whether this is MSG_ACCEPTED SUCCESS, so procedure results follow
	 */
	public boolean isSuccess() {
		return this.body instanceof AcceptedReply accepted && accepted.status() instanceof AcceptStatus.Success;
	}

}

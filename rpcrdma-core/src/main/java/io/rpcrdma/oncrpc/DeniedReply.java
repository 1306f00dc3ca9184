package io.rpcrdma.oncrpc;

import java.util.Objects;

/**
 * A call the server refused (RFC 5531 §9 {@code rejected_reply}, a union on
 * {@code reject_stat}): either the RPC version is wrong ({@link RpcMismatch}) or
 * authentication failed ({@link AuthError}).
 */
public sealed interface DeniedReply extends ReplyBody {

	/**
	 * @return the {@code reject_stat} value on the wire
	 */
	int rejectStat();

	@Override
	default int replyStat() {
		return MSG_DENIED;
	}

	/**
	 * {@code RPC_MISMATCH = 0}: the call's RPC version is not supported; the server supports
	 * versions {@code low} to {@code high} (unsigned), which for RFC 5531 is 2 to 2.
	 *
	 * @param low the lowest RPC version supported
	 * @param high the highest RPC version supported
	 */
	record RpcMismatch(int low, int high) implements DeniedReply {

		/** The {@code reject_stat} value. */
		public static final int CODE = 0;

		@Override
		public int rejectStat() {
			return CODE;
		}

	}

	/**
	 * {@code AUTH_ERROR = 1}: the server refuses to authenticate the caller.
	 *
	 * @param status why
	 */
	record AuthError(AuthStat status) implements DeniedReply {

		/** The {@code reject_stat} value. */
		public static final int CODE = 1;

		public AuthError {
			Objects.requireNonNull(status, "status");
		}

		@Override
		public int rejectStat() {
			return CODE;
		}

	}

}

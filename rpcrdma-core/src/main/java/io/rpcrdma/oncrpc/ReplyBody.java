package io.rpcrdma.oncrpc;

/**
 * The body of a reply (RFC 5531 §9 {@code reply_body}), a union on {@code reply_stat}: the
 * call was either {@link AcceptedReply accepted} or {@link DeniedReply denied}.
 */
public sealed interface ReplyBody permits AcceptedReply, DeniedReply {

	/** RFC 5531 §9 {@code reply_stat} MSG_ACCEPTED. */
	int MSG_ACCEPTED = 0;

	/** RFC 5531 §9 {@code reply_stat} MSG_DENIED. */
	int MSG_DENIED = 1;

	/**
	 * @return {@link #MSG_ACCEPTED} or {@link #MSG_DENIED}
	 */
	int replyStat();

}

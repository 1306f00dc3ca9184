package io.rpcrdma.server;

/**
 * What became of one inbound call; the transport may release the call's receive buffer once
 * the dispatcher reports it.
 */
public enum DispatchOutcome {

	/**
	 * A reply was sent: the procedure's results, or the error reply RFC 5531 §9 prescribes
	 * (PROG_UNAVAIL, PROG_MISMATCH, PROC_UNAVAIL, GARBAGE_ARGS, SYSTEM_ERR, RPC_MISMATCH,
	 * AUTH_ERROR).
	 */
	REPLIED,

	/** A retransmission was answered with the reply cached for the original call. */
	REPLIED_FROM_CACHE,

	/**
	 * The executor was saturated: the call did not run and was answered SYSTEM_ERR at once.
	 * A transport may take this as a signal to grant fewer credits.
	 */
	REJECTED_OVERLOADED,

	/**
	 * The message is not a call that can be answered (truncated header, not a CALL); RFC 5531
	 * defines no reply, so it was dropped.
	 */
	DROPPED_MALFORMED,

	/** A retransmission of a call still executing, beyond the waiters allowed; dropped. */
	DROPPED_DUPLICATE,

	/**
	 * The server is shutting down: the call did not run and was answered SYSTEM_ERR at once,
	 * so the caller does not wait for the connection to close.
	 */
	REJECTED_SHUTTING_DOWN,

	/**
	 * No reply could be sent (no reply buffer, the reply did not fit, or the sink failed); the
	 * cause was logged.
	 */
	FAILED

}

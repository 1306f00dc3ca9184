package io.rpcrdma.verbs;

/**
 * The status of a {@link WorkCompletion}, named as verbs {@code ibv_wc_status}.
 */
public enum CompletionStatus {

	/** The work request completed successfully. */
	SUCCESS,

	/** Local length error: a receive buffer was too small for the incoming Send, or an SGE list was too long. */
	LOC_LEN_ERR,

	/** Local queue pair operation error: the work request was malformed for this queue pair. */
	LOC_QP_OP_ERR,

	/** Local protection error: a scatter/gather entry referenced invalid, foreign or insufficiently accessible local memory. */
	LOC_PROT_ERR,

	/** The work request was flushed because the queue pair is in the error state; it was not executed. */
	WR_FLUSH_ERR,

	/** Remote invalid request: the peer could not accept the request (for example its receive buffer was too small). */
	REM_INV_REQ_ERR,

	/** Remote access error: the peer refused the tagged access (bad STag, bounds, rights or domain). */
	REM_ACCESS_ERR,

	/** Remote operation error: the peer failed to execute the operation. */
	REM_OP_ERR,

	/** Transport retry counter exceeded: the peer did not respond. */
	RETRY_EXC_ERR,

	/** Receiver-not-ready retry counter exceeded: the peer never posted a receive in time. */
	RNR_RETRY_EXC_ERR,

	/** Any other fatal error (device or provider failure). */
	GENERAL_ERR;

	/**
	 * Whether the work request succeeded.
	 * @return {@code true} for {@link #SUCCESS}
	 */
	public boolean isSuccess() {
		return this == SUCCESS;
	}

}

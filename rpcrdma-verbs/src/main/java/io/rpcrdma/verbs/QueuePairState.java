package io.rpcrdma.verbs;

/**
 * The states of a queue pair, a reduced verbs state machine ({@code RESET/INIT} →
 * {@code RTR/RTS} → {@code ERR}, plus destroyed).
 */
public enum QueuePairState {

	/** Created, not connected: receives may be posted (and should be, before connecting); sends may not. */
	INIT,

	/** Connected, ready to send and receive. */
	RTS,

	/**
	 * The connection failed or was disconnected: every outstanding and later-posted work
	 * request completes with {@link CompletionStatus#WR_FLUSH_ERR}.
	 */
	ERROR,

	/** Destroyed; nothing may be posted. */
	CLOSED

}

package io.rpcrdma.verbs;

/**
 * The kinds of connection manager events (rdma_cm {@code rdma_cm_event_type}).
 */
public enum ConnectionEventType {

	/** The connection is up: both queue pairs are ready to send. */
	ESTABLISHED,

	/** The peer rejected the connection request; the event carries its private data. */
	REJECTED,

	/** The connection request could not be delivered (nothing listening, unreachable). */
	CONNECT_ERROR,

	/** The peer did not answer the connection request in time. */
	TIMEOUT,

	/** A fatal error broke an established connection (remote access violation, RNR retries exhausted, length error, device failure). Followed by {@link #DISCONNECTED}. */
	ERROR,

	/** The connection is down (either side disconnected, or after {@link #ERROR}); the queue pair is in error and flushed. */
	DISCONNECTED

}

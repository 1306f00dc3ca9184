package io.rpcrdma.server;

/**
 * How much of the {@link ServerExecutor} one connection may hold, so that a busy connection
 * (a peer pipelining as many calls as its credits allow, or many peers' calls multiplexed on
 * one connection) cannot starve the quiet ones: at most {@code calls} of a connection's calls
 * are in the executor at once, queued for a worker or running; its further calls wait on the
 * connection, in order, each keeping its credit (RFC 8166 §3.3: the requester can send no more
 * than it was granted), so the backpressure falls on that connection alone; a call beyond
 * {@code waiting} more is refused as overloaded, as a saturated executor refuses. A call
 * leaves its place when its handler returns (a handler answering later through a stage holds
 * no worker meanwhile), and the connection's next waiting call joins the back of the
 * executor's queue, behind the calls of other connections already there.
 *
 * @param calls the most calls of one connection queued or running in the executor, at least 1
 * @param waiting the most calls of one connection waiting for one of those to end, 0 or more
 */
public record ExecutorShare(int calls, int waiting) {

	/**
	 * Validates.
	 */
	public ExecutorShare {
		if (calls < 1) {
			throw new IllegalArgumentException("A connection's share of the executor must be at least 1 call, not " + calls);
		}
		if (waiting < 0) {
			throw new IllegalArgumentException("The calls waiting for a connection's share must be 0 or more, not " + waiting);
		}
	}

}

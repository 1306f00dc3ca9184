package io.rpcrdma.service;

/**
 * How a service call ended, as metrics tag it.
 */
public enum CallOutcome {

	/** The method returned. */
	SUCCESS,

	/** The method threw; the exception travelled back as a {@link RemoteFault}. */
	FAULT,

	/**
	 * The server refused the call at the RPC level (PROG_UNAVAIL, PROG_MISMATCH, PROC_UNAVAIL,
	 * GARBAGE_ARGS, SYSTEM_ERR, a denied reply) or the call could not be encoded or decoded.
	 */
	ERROR,

	/** No reply came before the deadline. */
	TIMEOUT,

	/** The connection was lost and the call could not be completed on another. */
	CONNECTION_LOST;

	/** @return the tag value, lower case ({@code success}, {@code connection_lost}, …) */
	public String tag() {
		return name().toLowerCase(java.util.Locale.ROOT);
	}

}

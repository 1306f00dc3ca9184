package io.rpcrdma.server.security;

/**
 * A new RPCSEC_GSS context was refused because a {@link GssContextLimits limit} was reached
 * and nothing could give way. The client is told SYSTEM_ERR; this message, for the server's
 * log, says which limit and what to do.
 */
final class GssContextRefusedException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/** Which limit was reached. */
	enum Limit {

		/** {@link GssContextLimits#maxPerConnection()}. */
		PER_CONNECTION,

		/** {@link GssContextLimits#maxPerPrincipal()}. */
		PER_PRINCIPAL,

		/** {@link GssContextLimits#maxContexts()}. */
		TABLE_FULL

	}

	private final Limit limit;

	private final boolean first;

	/**
	 * @param limit which limit
	 * @param message what was refused and what to do
	 * @param first whether this is the first refusal of its holder (or, for a full table, since
	 * it last had room), which is worth a warning; later ones are not, or a flood of refused
	 * calls would flood the log too
	 */
	GssContextRefusedException(Limit limit, String message, boolean first) {
		// Refusals are what a flooding peer gets for every call: no stack trace to fill.
		super(message, null, false, false);
		this.limit = limit;
		this.first = first;
	}

	/** @return which limit was reached */
	Limit limit() {
		return this.limit;
	}

	/** @return whether this is the first refusal of its holder, worth a warning */
	boolean first() {
		return this.first;
	}

}

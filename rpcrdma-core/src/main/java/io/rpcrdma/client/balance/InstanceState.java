package io.rpcrdma.client.balance;

/**
 * Where an instance of a {@link BalancedCaller} stands.
 */
public enum InstanceState {

	/** Takes calls. */
	UP,

	/**
	 * Taken out after consecutive connection failures; takes no calls until a probe (a NULL
	 * call) succeeds.
	 */
	EJECTED,

	/** Ejected, with a probe under way. */
	PROBING,

	/**
	 * Gone from the instance set: takes no new calls, and its connections close once the calls
	 * on them have ended.
	 */
	DRAINING

}

package io.rpcrdma.service;

/**
 * Which end of a call a {@link ServiceCallObserver} watches.
 */
public enum CallSide {

	/** The caller, through a service proxy. */
	CLIENT,

	/** The server, running an exported implementation. */
	SERVER

}

package io.rpcrdma.transport;

/**
 * When the Connection Configuration Protocol (RFC 5666 §6, program 100417) runs in band.
 * A responder answers CCP calls unless {@link #DISABLED}; a requester sends one after
 * connecting, before its first RPC, as this mode says.
 */
public enum CcpMode {

	/** Never send a CCP call, and hand CCP calls to the RPC layer like any other. */
	DISABLED,

	/**
	 * Send a CCP call only when RFC 8797 private data cannot carry the inline sizes: the
	 * provider cannot exchange it both ways (DiSNI cannot read the accept's) or it is turned
	 * off in the {@link TransportConfig}.
	 */
	WHEN_NEEDED,

	/** Always send a CCP call after connecting, even when private data was exchanged. */
	ALWAYS

}

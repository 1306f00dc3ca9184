package io.rpcrdma.verbs;

/**
 * What a provider can do beyond the semantics every provider shows, so that the layers
 * above choose a mechanism that works on it instead of failing at run time.
 * <p>
 * The flags exist because real adapters reached through a thin binding lack features a
 * software provider has: DiSNI 2.1, for example, neither reads connection manager
 * private data nor sends it with an accept, so the RPC-over-RDMA transport negotiates
 * inline thresholds and credits in band (the CCP, program 100417) rather than with
 * RFC 8797 private data.
 *
 * @param requestPrivateDataVisible whether a listener sees the private data of a
 * connection request ({@link ConnectionRequest#privateData()})
 * @param acceptPrivateDataVisible whether the requester sees the private data of the
 * accept ({@link RdmaConnection#remotePrivateData()} on the active side)
 * @param rejectPrivateDataVisible whether the requester sees the private data of a
 * reject ({@link ConnectionRejectedException#privateData()})
 * @param remoteInvalidation whether a peer can invalidate this provider's STags with
 * {@link SendOpcode#SEND_WITH_INVALIDATE} (RFC 5040 Send with Invalidate); when not, the
 * owner invalidates locally after the RPC completes (RFC 8166 on memory protection)
 */
public record ProviderCapabilities(boolean requestPrivateDataVisible, boolean acceptPrivateDataVisible,
		boolean rejectPrivateDataVisible, boolean remoteInvalidation) {

	/** Everything the SPI describes works: what the software providers offer. */
	public static final ProviderCapabilities FULL = new ProviderCapabilities(true, true, true, true);

	/**
	 * Whether RFC 8797 connection private data can be used in both directions: the
	 * requester's reaches the listener and the acceptor's reaches the requester.
	 * @return {@code true} if private data travels both ways
	 */
	public boolean privateDataExchange() {
		return this.requestPrivateDataVisible && this.acceptPrivateDataVisible;
	}

}

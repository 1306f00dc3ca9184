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
 * @param remoteInvalidation whether {@link SendOpcode#SEND_WITH_INVALIDATE} (RFC 5040 Send with
 * Invalidate) works on this provider both ways: a peer can invalidate this provider's STags
 * with it, and this provider's own carry the STag to the peer; when not, the owner
 * invalidates locally after the RPC completes (RFC 8166 on memory protection), and the layers
 * above neither advertise nor send it
 * @param receiverNotReadyRetry whether a Send that finds no receive posted is retried as the
 * queue pair's {@link RnrPolicy} says (InfiniBand and RoCE RNR NAKs, the software providers);
 * when not, it fails the connection, as on iWARP adapters (RFC 5041 §7: an untagged message
 * with no buffer is a DDP error the receiver answers with a Terminate)
 * @param remoteErrorsAtInitiator whether a work request the peer refuses (a bad STag, a
 * receive too small) completes with that error at the initiator, as on InfiniBand and RoCE,
 * whose every message is acknowledged; when not, Sends and Writes complete successfully once
 * handed to the transport and RDMA Reads in flight are flushed, while the peer's Terminate
 * fails the connection, as on iWARP adapters (RFC 5040 §7; Linux's siw)
 * @param connectionScopedRegions whether {@link MemoryRegion#offerTo(QueuePair)} restricts a
 * region to one connection; when not, any queue pair of the region's protection domain that
 * knows its STag reaches it while it is valid (DiSNI 2.1 exposes no memory windows)
 */
public record ProviderCapabilities(boolean requestPrivateDataVisible, boolean acceptPrivateDataVisible,
		boolean rejectPrivateDataVisible, boolean remoteInvalidation, boolean receiverNotReadyRetry,
		boolean remoteErrorsAtInitiator, boolean connectionScopedRegions) {

	/** Everything the SPI describes works: what the software providers offer. */
	public static final ProviderCapabilities FULL = new ProviderCapabilities(true, true, true, true, true, true, true);

	/**
	 * Whether RFC 8797 connection private data can be used in both directions: the
	 * requester's reaches the listener and the acceptor's reaches the requester.
	 * @return {@code true} if private data travels both ways
	 */
	public boolean privateDataExchange() {
		return this.requestPrivateDataVisible && this.acceptPrivateDataVisible;
	}

}

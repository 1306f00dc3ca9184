package io.rpcrdma.transport;

import java.util.Optional;

import io.rpcrdma.protocol.Rfc8797PrivateData;
import io.rpcrdma.protocol.RpcRdmaConstants;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.ProviderCapabilities;

/**
 * The inline thresholds of one connection (RFC 8166 §3.3.2): what this side sends in RFC
 * 8797 private data, what the peer said in its own or in band with CCP (RFC 5666 §6.2), and
 * the smaller of both sides' sizes each way that follows; without either, the version's
 * default.
 */
final class InlineSizes {

	private final TransportConfig config;

	// TransportConfig#receiveBufferSize, which loops over the versions: the thresholds ask per call.
	private final int receiveBufferSize;

	/** Whether this side advertises RFC 8797's remote invalidation: configured and possible. */
	private final boolean acceptsInvalidate;

	// Whether Send With Invalidate works on the provider at all, in either direction.
	private final boolean providerInvalidates;

	/** The peer's RFC 8797 data (or its CCP sizes), or {@code null} if it sent none. */
	private volatile Rfc8797PrivateData peer;

	/**
	 * @param config the connection's settings
	 * @param receiveBufferSize {@code config}'s receive buffer size
	 */
	InlineSizes(TransportConfig config, int receiveBufferSize) {
		this(config, receiveBufferSize, true);
	}

	/**
	 * @param config the connection's settings
	 * @param receiveBufferSize {@code config}'s receive buffer size
	 * @param providerInvalidates whether the provider's STags can be invalidated by the peer's
	 * Send With Invalidate ({@link ProviderCapabilities#remoteInvalidation()}): where they
	 * cannot (regions registered with {@code ibv_reg_mr} on a verbs device), this side must not
	 * advertise RFC 8797's remote invalidation, or the peer's reply fails on the device
	 * ({@code IBV_WC_REM_INV_REQ_ERR})
	 */
	InlineSizes(TransportConfig config, int receiveBufferSize, boolean providerInvalidates) {
		this.config = config;
		this.receiveBufferSize = receiveBufferSize;
		this.acceptsInvalidate = config.remoteInvalidate() && providerInvalidates;
		this.providerInvalidates = providerInvalidates;
	}

	/** @return the private data this side sends: its receive size and remote invalidation */
	PrivateData localPrivateData() {
		if (!this.config.privateData()) {
			return PrivateData.EMPTY;
		}
		int size = this.receiveBufferSize;
		return PrivateData.of(Rfc8797PrivateData.of(this.acceptsInvalidate, size, size).encode());
	}

	void acceptPeerPrivateData(PrivateData data) {
		if (!this.config.privateData()) {
			// Configured as if the provider could not carry it: the sizes come in band or not at all.
			return;
		}
		Optional<Rfc8797PrivateData> decoded = Rfc8797PrivateData.decode(data.bytes());
		this.peer = decoded.orElse(null);
	}

	/**
	 * The most this side may send inline in a version (RFC 8797 §4: the smaller of what this
	 * side sends and what the peer receives; without private data, the version's default).
	 * @param version 1 or 2
	 * @return the threshold in bytes
	 */
	int sendThreshold(int version) {
		Rfc8797PrivateData peer = this.peer;
		int ours = this.config.inlineThreshold(version);
		if (peer == null) {
			return Math.min(ours, defaultThreshold(version));
		}
		return Math.min(this.receiveBufferSize, peer.maxReceiveSize());
	}

	/**
	 * The most the peer may send this side inline: what this side receives, limited by what
	 * the peer said it sends.
	 * @param version 1 or 2
	 * @return the threshold in bytes
	 */
	int receiveThreshold(int version) {
		Rfc8797PrivateData peer = this.peer;
		int ours = this.config.inlineThreshold(version);
		if (peer == null) {
			// Without private data or CCP the peer assumes the version's default of this side
			// (RFC 8166 §3.3.2, draft §2.3) and sends no more inline than that.
			return Math.min(ours, defaultThreshold(version));
		}
		return Math.min(this.receiveBufferSize, peer.maxSendSize());
	}

	/**
	 * Takes the peer's inline sizes learnt in band with CCP (RFC 5666 §6.2) exactly as if
	 * they had come as RFC 8797 private data: from then on the thresholds are the smaller of
	 * both sides' values. Whether the peer accepts Send With Invalidate is kept from its
	 * private data, if any; CCP does not say.
	 * @param peerMaxSend the most the peer sends inline
	 * @param peerMaxReceive the most the peer receives inline
	 */
	void applyInBandSizes(int peerMaxSend, int peerMaxReceive) {
		Rfc8797PrivateData previous = this.peer;
		this.peer = Rfc8797PrivateData.of(previous != null && previous.remoteInvalidate(),
				Math.max(Rfc8797PrivateData.MIN_SIZE, peerMaxSend), Math.max(Rfc8797PrivateData.MIN_SIZE, peerMaxReceive));
	}

	private static int defaultThreshold(int version) {
		return (version == RpcRdmaConstants.VERSION_2) ? TransportConfig.DEFAULT_INLINE_THRESHOLD_V2
				: TransportConfig.DEFAULT_INLINE_THRESHOLD_V1;
	}

	/**
	 * Whether this side's replies may invalidate with Send With Invalidate: the peer said it
	 * accepts it (RFC 8797 §4.1), and the provider carries it. On {@code disni} it does not
	 * (a lab run of a disni responder on Linux's siw sent the invalidate STag as 0, and the
	 * requester terminated the connection), so the requester invalidates locally: RFC 8797 §4.1
	 * permits Send With Invalidate, it never requires it.
	 * @return whether to send Send With Invalidate
	 */
	boolean peerAcceptsInvalidate() {
		Rfc8797PrivateData peer = this.peer;
		return this.providerInvalidates && peer != null && peer.remoteInvalidate();
	}

}

package io.rpcrdma.transport;

import java.time.Duration;
import java.util.Objects;

import io.rpcrdma.protocol.HeaderLimits;
import io.rpcrdma.protocol.RpcRdmaConstants;
import io.rpcrdma.protocol.Rfc8797PrivateData;
import io.rpcrdma.oncrpc.VersionRange;

/**
 * The settings of one RPC-over-RDMA connection, requester or responder side.
 *
 * @param supportedVersions the RPC-over-RDMA versions this side speaks (within 1 and 2)
 * @param preferredVersion the version a requester tries first (draft-cel-nfsv4-rpcrdma-version-two
 * §5: try Version 2, fall back on ERR_VERS); must be in {@code supportedVersions}
 * @param inlineThresholdV1 this side's receive buffer size for Version 1 and the most it sends
 * inline (RFC 8166 §3.3.2 default 1024)
 * @param inlineThresholdV2 the same for Version 2 (draft default 4096)
 * @param creditsRequested what a requester asks for in every call's rdma_credit (RFC 5666 §3.3);
 * it also posts that many receives for replies
 * @param creditsGranted the most a responder grants one connection
 * @param receiveCount how many receives a side keeps posted; at least the credits it can be
 * owed (RFC 5666 §3.3: a responder posts at least as many receives as it grants), plus
 * slack for RDMA_DONE and error replies
 * @param headerLimits what a received header may contain
 * @param connectTimeout how long establishing a connection may take
 * @param creditWaitTimeout how long a call may wait for a credit before it fails
 * @param doneTimeout how long a responder that sent reply data in Read chunks waits for
 * RDMA_DONE before reclaiming the buffers (RFC 5666 §11)
 * @param creditViolation what a responder does to a requester that exceeds its grant
 * @param remoteInvalidate whether this side accepts Send With Invalidate (RFC 8797 "I" flag)
 * @param replyDataInReadChunks a responder sends DDP-eligible reply data that finds no Write
 * chunk as Read chunks of the reply, RFC 5666 style, instead of inline
 * @param checkChunkLengthWords a responder checks that the four bytes before each Read
 * chunk's position (the XDR length of the opaque it carries) equal the chunk's length
 * @param privateData whether this side sends and honours RFC 8797 private data in the
 * connection exchange; {@code false} behaves like a provider that cannot carry it
 * @param inBandCcp when a requester negotiates inline sizes in band with the Connection
 * Configuration Protocol (RFC 5666 §6) and whether a responder answers it
 * @param ccpTimeout how long a requester waits for the CCP reply before it gives up and
 * keeps the version defaults (a responder that does not speak CCP may never answer)
 * @param maxOutstandingReads this side's ORD: the most RDMA Reads it has outstanding on one
 * connection at once (RFC 5666 §6.2 {@code maxrdmaread}); further Reads wait in FIFO order
 * @param peerLimits how long the peer may leave this side's work unanswered and how much bulk
 * memory one connection holds
 */
public record TransportConfig(VersionRange supportedVersions, int preferredVersion, int inlineThresholdV1,
		int inlineThresholdV2, int creditsRequested, int creditsGranted, int receiveCount, HeaderLimits headerLimits,
		Duration connectTimeout, Duration creditWaitTimeout, Duration doneTimeout, CreditViolationPolicy creditViolation,
		boolean remoteInvalidate, boolean replyDataInReadChunks, boolean checkChunkLengthWords, boolean privateData,
		CcpMode inBandCcp, Duration ccpTimeout, int maxOutstandingReads, PeerLimits peerLimits) {

	/** RFC 8166 §3.3.2: the Version 1 default and minimum inline threshold. */
	public static final int DEFAULT_INLINE_THRESHOLD_V1 = 1024;

	/** draft-cel-nfsv4-rpcrdma-version-two: the Version 2 default inline threshold. */
	public static final int DEFAULT_INLINE_THRESHOLD_V2 = 4096;

	/**
	 * The default ORD: RDMA Reads one connection keeps outstanding at once, the usual IRD of
	 * adapters and of the siw provider's defaults (RFC 5040 §5.1).
	 */
	public static final int DEFAULT_MAX_OUTSTANDING_READS = 16;

	/** The default number of credits asked for and granted. */
	public static final int DEFAULT_CREDITS = 32;

	/**
	 * Validates the settings.
	 */
	public TransportConfig {
		Objects.requireNonNull(supportedVersions, "supportedVersions");
		Objects.requireNonNull(headerLimits, "headerLimits");
		Objects.requireNonNull(connectTimeout, "connectTimeout");
		Objects.requireNonNull(creditWaitTimeout, "creditWaitTimeout");
		Objects.requireNonNull(doneTimeout, "doneTimeout");
		Objects.requireNonNull(creditViolation, "creditViolation");
		if (!VersionRange.VERSIONS_1_AND_2.contains(supportedVersions.low())
				|| !VersionRange.VERSIONS_1_AND_2.contains(supportedVersions.high())) {
			throw new IllegalArgumentException("Only RPC-over-RDMA versions 1 and 2 are implemented, not " + supportedVersions);
		}
		if (!supportedVersions.contains(preferredVersion)) {
			throw new IllegalArgumentException(
					"The preferred version " + preferredVersion + " is not among the supported " + supportedVersions);
		}
		checkThreshold("inlineThresholdV1", inlineThresholdV1);
		checkThreshold("inlineThresholdV2", inlineThresholdV2);
		if (creditsRequested < 1 || creditsRequested > 65535) {
			throw new IllegalArgumentException("creditsRequested must be 1 to 65535, got " + creditsRequested);
		}
		if (creditsGranted < 1 || creditsGranted > 65535) {
			throw new IllegalArgumentException(
					"creditsGranted must be 1 to 65535 (RFC 8166 §3.3.1: never zero), got " + creditsGranted);
		}
		if (receiveCount < Math.max(creditsRequested, creditsGranted) + 1) {
			throw new IllegalArgumentException("receiveCount " + receiveCount + " must exceed both creditsRequested ("
					+ creditsRequested + ") and creditsGranted (" + creditsGranted
					+ "): RFC 5666 §3.3 needs a posted receive for every credit, and one more for RDMA_DONE or errors");
		}
		requirePositive("connectTimeout", connectTimeout);
		requirePositive("creditWaitTimeout", creditWaitTimeout);
		requirePositive("doneTimeout", doneTimeout);
		Objects.requireNonNull(inBandCcp, "inBandCcp");
		Objects.requireNonNull(ccpTimeout, "ccpTimeout");
		requirePositive("ccpTimeout", ccpTimeout);
		if (maxOutstandingReads < 1 || maxOutstandingReads > 65535) {
			throw new IllegalArgumentException("maxOutstandingReads (the ORD) must be 1 to 65535, got "
					+ maxOutstandingReads);
		}
		Objects.requireNonNull(peerLimits, "peerLimits");
	}

	/**
	 * Defaults: Versions 1 and 2, preferring 2; thresholds 1024 and 4096; 32 credits asked
	 * and granted; 40 receives; default header limits; 10 s connect, 30 s credit wait and
	 * RDMA_DONE timeouts; a violating requester is disconnected; RFC 8797 private data, with
	 * the in-band CCP where the provider cannot carry it (5 s wait); an ORD of 16;
	 * {@link PeerLimits#DEFAULTS}.
	 * @return the defaults
	 */
	public static TransportConfig defaults() {
		return new TransportConfig(VersionRange.VERSIONS_1_AND_2, RpcRdmaConstants.VERSION_2,
				DEFAULT_INLINE_THRESHOLD_V1, DEFAULT_INLINE_THRESHOLD_V2, DEFAULT_CREDITS, DEFAULT_CREDITS,
				DEFAULT_CREDITS + 8, HeaderLimits.DEFAULTS, Duration.ofSeconds(10), Duration.ofSeconds(30),
				Duration.ofSeconds(30), CreditViolationPolicy.DISCONNECT, true, false, true, true, CcpMode.WHEN_NEEDED,
				Duration.ofSeconds(5), DEFAULT_MAX_OUTSTANDING_READS, PeerLimits.DEFAULTS);
	}

	/**
	 * The inline threshold of a version: this side's receive size and send limit.
	 * @param version 1 or 2
	 * @return the threshold in bytes
	 */
	public int inlineThreshold(int version) {
		return (version == RpcRdmaConstants.VERSION_2) ? this.inlineThresholdV2 : this.inlineThresholdV1;
	}

	/**
	 * The size of the receive buffers this side posts: the largest threshold of a version it
	 * speaks.
	 * @return the size in bytes
	 */
	public int receiveBufferSize() {
		int size = 0;
		for (int v = this.supportedVersions.low(); v <= this.supportedVersions.high(); v++) {
			size = Math.max(size, inlineThreshold(v));
		}
		return size;
	}

	/**
	 * A copy with other versions.
	 * @param supported the supported range
	 * @param preferred the version tried first
	 * @return the new config
	 */
	public TransportConfig withVersions(VersionRange supported, int preferred) {
		return new TransportConfig(supported, preferred, this.inlineThresholdV1, this.inlineThresholdV2,
				this.creditsRequested, this.creditsGranted, this.receiveCount, this.headerLimits, this.connectTimeout,
				this.creditWaitTimeout, this.doneTimeout, this.creditViolation, this.remoteInvalidate,
				this.replyDataInReadChunks, this.checkChunkLengthWords, this.privateData, this.inBandCcp,
				this.ccpTimeout, this.maxOutstandingReads, this.peerLimits);
	}

	/**
	 * A copy with other inline thresholds.
	 * @param v1 the Version 1 threshold
	 * @param v2 the Version 2 threshold
	 * @return the new config
	 */
	public TransportConfig withInlineThresholds(int v1, int v2) {
		return new TransportConfig(this.supportedVersions, this.preferredVersion, v1, v2, this.creditsRequested,
				this.creditsGranted, this.receiveCount, this.headerLimits, this.connectTimeout, this.creditWaitTimeout,
				this.doneTimeout, this.creditViolation, this.remoteInvalidate, this.replyDataInReadChunks,
				this.checkChunkLengthWords, this.privateData, this.inBandCcp,
				this.ccpTimeout, this.maxOutstandingReads, this.peerLimits);
	}

	/**
	 * A copy with other credit settings.
	 * @param requested asked for by a requester
	 * @param granted the most a responder grants
	 * @param receives receives kept posted
	 * @return the new config
	 */
	public TransportConfig withCredits(int requested, int granted, int receives) {
		return new TransportConfig(this.supportedVersions, this.preferredVersion, this.inlineThresholdV1,
				this.inlineThresholdV2, requested, granted, receives, this.headerLimits, this.connectTimeout,
				this.creditWaitTimeout, this.doneTimeout, this.creditViolation, this.remoteInvalidate,
				this.replyDataInReadChunks, this.checkChunkLengthWords, this.privateData, this.inBandCcp,
				this.ccpTimeout, this.maxOutstandingReads, this.peerLimits);
	}

	/**
	 * A copy with other timeouts.
	 * @param connect connection establishment
	 * @param creditWait waiting for a credit
	 * @param done waiting for RDMA_DONE
	 * @return the new config
	 */
	public TransportConfig withTimeouts(Duration connect, Duration creditWait, Duration done) {
		return new TransportConfig(this.supportedVersions, this.preferredVersion, this.inlineThresholdV1,
				this.inlineThresholdV2, this.creditsRequested, this.creditsGranted, this.receiveCount,
				this.headerLimits, connect, creditWait, done, this.creditViolation, this.remoteInvalidate,
				this.replyDataInReadChunks, this.checkChunkLengthWords, this.privateData, this.inBandCcp,
				this.ccpTimeout, this.maxOutstandingReads, this.peerLimits);
	}

	/**
	 * A copy with another credit violation policy.
	 * @param policy the policy
	 * @return the new config
	 */
	public TransportConfig withCreditViolation(CreditViolationPolicy policy) {
		return new TransportConfig(this.supportedVersions, this.preferredVersion, this.inlineThresholdV1,
				this.inlineThresholdV2, this.creditsRequested, this.creditsGranted, this.receiveCount,
				this.headerLimits, this.connectTimeout, this.creditWaitTimeout, this.doneTimeout, policy,
				this.remoteInvalidate, this.replyDataInReadChunks, this.checkChunkLengthWords, this.privateData, this.inBandCcp,
				this.ccpTimeout, this.maxOutstandingReads, this.peerLimits);
	}

	/**
	 * A copy with other feature switches.
	 * @param invalidate accept Send With Invalidate
	 * @param readChunkReplies send reply data in Read chunks (RFC 5666 style)
	 * @param lengthWords check Read chunk lengths against the XDR length words
	 * @return the new config
	 */
	public TransportConfig withFeatures(boolean invalidate, boolean readChunkReplies, boolean lengthWords) {
		return new TransportConfig(this.supportedVersions, this.preferredVersion, this.inlineThresholdV1,
				this.inlineThresholdV2, this.creditsRequested, this.creditsGranted, this.receiveCount,
				this.headerLimits, this.connectTimeout, this.creditWaitTimeout, this.doneTimeout, this.creditViolation,
				invalidate, readChunkReplies, lengthWords, this.privateData, this.inBandCcp,
				this.ccpTimeout, this.maxOutstandingReads, this.peerLimits);
	}

	/**
	 * A copy with other header limits.
	 * @param limits the limits
	 * @return the new config
	 */
	public TransportConfig withHeaderLimits(HeaderLimits limits) {
		return new TransportConfig(this.supportedVersions, this.preferredVersion, this.inlineThresholdV1,
				this.inlineThresholdV2, this.creditsRequested, this.creditsGranted, this.receiveCount, limits,
				this.connectTimeout, this.creditWaitTimeout, this.doneTimeout, this.creditViolation,
				this.remoteInvalidate, this.replyDataInReadChunks, this.checkChunkLengthWords, this.privateData, this.inBandCcp,
				this.ccpTimeout, this.maxOutstandingReads, this.peerLimits);
	}

	/**
	 * A copy with other connection-configuration settings.
	 * @param sendPrivateData send and honour RFC 8797 private data
	 * @param ccp when to negotiate in band with CCP
	 * @param timeout how long a requester waits for the CCP reply
	 * @return the new config
	 */
	public TransportConfig withConnectionConfiguration(boolean sendPrivateData, CcpMode ccp, Duration timeout) {
		return new TransportConfig(this.supportedVersions, this.preferredVersion, this.inlineThresholdV1,
				this.inlineThresholdV2, this.creditsRequested, this.creditsGranted, this.receiveCount,
				this.headerLimits, this.connectTimeout, this.creditWaitTimeout, this.doneTimeout, this.creditViolation,
				this.remoteInvalidate, this.replyDataInReadChunks, this.checkChunkLengthWords, sendPrivateData, ccp,
				timeout, this.maxOutstandingReads, this.peerLimits);
	}

	/**
	 * A copy with another ORD.
	 * @param reads the most RDMA Reads outstanding on one connection
	 * @return the new config
	 */
	public TransportConfig withMaxOutstandingReads(int reads) {
		return new TransportConfig(this.supportedVersions, this.preferredVersion, this.inlineThresholdV1,
				this.inlineThresholdV2, this.creditsRequested, this.creditsGranted, this.receiveCount,
				this.headerLimits, this.connectTimeout, this.creditWaitTimeout, this.doneTimeout, this.creditViolation,
				this.remoteInvalidate, this.replyDataInReadChunks, this.checkChunkLengthWords, this.privateData,
				this.inBandCcp, this.ccpTimeout, reads, this.peerLimits);
	}

	/**
	 * A copy with other peer limits.
	 * @param limits the limits
	 * @return the new config
	 */
	public TransportConfig withPeerLimits(PeerLimits limits) {
		return new TransportConfig(this.supportedVersions, this.preferredVersion, this.inlineThresholdV1,
				this.inlineThresholdV2, this.creditsRequested, this.creditsGranted, this.receiveCount,
				this.headerLimits, this.connectTimeout, this.creditWaitTimeout, this.doneTimeout, this.creditViolation,
				this.remoteInvalidate, this.replyDataInReadChunks, this.checkChunkLengthWords, this.privateData,
				this.inBandCcp, this.ccpTimeout, this.maxOutstandingReads, limits);
	}

	private static void checkThreshold(String name, int value) {
		if (value < Rfc8797PrivateData.MIN_SIZE || value > Rfc8797PrivateData.MAX_SIZE) {
			throw new IllegalArgumentException(name + " must be 1024 to 262144 bytes (RFC 8166 §3.3.2 minimum, RFC 8797 "
					+ "maximum), got " + value);
		}
	}

	private static void requirePositive(String name, Duration value) {
		if (value.isNegative() || value.isZero()) {
			throw new IllegalArgumentException(name + " must be positive, got " + value);
		}
	}

}

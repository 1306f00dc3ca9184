package io.rpcrdma.verbs.siw.wire;

/**
 * Whether this endpoint asks for MPA CRC32c (RFC 5044 §7.1).
 * <p>
 * Each side's C flag says it wants CRC; once either side sets it, FPDUs carry CRC32c in both
 * directions, and a responder that received C=1 must answer C=1. MPA implementations must
 * support CRC, so no policy refuses a peer that asks for it. Linux siw defaults to the
 * equivalent of {@link #OFF_UNLESS_ASKED} ({@code mpa_crc_required=false}).
 */
public enum CrcPolicy {

	/** Do not ask for CRC; use it when the peer asks (TCP's checksum covers the common case). */
	OFF_UNLESS_ASKED,

	/** Ask for CRC, and refuse a responder that answers without it. */
	REQUIRE;

	/** @return the C flag this policy puts in our own Request or Reply */
	public boolean asksForCrc() {
		return this == REQUIRE;
	}

}

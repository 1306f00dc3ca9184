package io.rpcrdma.verbs.siw.wire;

/**
 * What an MPA Request/Reply exchange settled (RFC 5044 §7.1, RFC 6581).
 *
 * @param crc whether FPDUs carry CRC32c, in both directions
 * @param revision the MPA revision in force, 1 or 2
 * @param peerIrdOrd the IRD/ORD words the peer sent, or null when the exchange was not
 * enhanced
 */
public record MpaConnectionParameters(boolean crc, int revision, MpaIrdOrd peerIrdOrd) {

	/** @return true when the exchange used enhanced (RFC 6581) connection setup */
	public boolean enhanced() {
		return this.peerIrdOrd != null;
	}

}

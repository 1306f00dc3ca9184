package io.rpcrdma.verbs.siw.wire;

/**
 * An FPDU's ULPDU Length field (RFC 5044 §4.1) is larger than the receiver allows or than its
 * receive buffer can ever hold, or smaller than any DDP header. Rejected from the two length
 * bytes alone: nothing is allocated or awaited on the strength of a peer's length.
 */
public final class FpduLengthException extends FpduFramingException {

	private static final long serialVersionUID = 1L;

	private final int ulpduLength;

	public FpduLengthException(int ulpduLength, String why) {
		super(TerminateError.MPA_FPDU_FRAMING_ERROR, "FPDU ULPDU length " + ulpduLength + " rejected: " + why);
		this.ulpduLength = ulpduLength;
	}

	/** @return the ULPDU length the peer sent */
	public int ulpduLength() {
		return this.ulpduLength;
	}

}

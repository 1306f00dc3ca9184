package io.rpcrdma.verbs.siw.wire;

/**
 * An FPDU's pad bytes (RFC 5044 §4.2, which requires the sender to zero them) are not zero.
 * The parser can be told to tolerate this; by default it treats it as lost framing.
 */
public final class FpduPaddingException extends FpduFramingException {

	private static final long serialVersionUID = 1L;

	public FpduPaddingException(int ulpduLength) {
		super(TerminateError.MPA_FPDU_FRAMING_ERROR, "FPDU with ULPDU length " + ulpduLength
				+ " has non-zero pad bytes; RFC 5044 §4.2 requires zero padding, so the FPDU framing cannot be trusted");
	}

}

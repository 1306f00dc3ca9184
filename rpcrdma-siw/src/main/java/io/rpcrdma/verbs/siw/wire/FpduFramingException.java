package io.rpcrdma.verbs.siw.wire;

/**
 * An FPDU (RFC 5044 §4) cannot be framed: its length, pad or CRC is wrong, or the stream ended
 * inside it. After such an error the position of the next FPDU is unknown, so the stream is
 * lost; the provider sends a Terminate with {@link #terminateError()} and closes.
 */
public class FpduFramingException extends IwarpWireException {

	private static final long serialVersionUID = 1L;

	public FpduFramingException(TerminateError terminateError, String message) {
		super(terminateError, message);
	}

}

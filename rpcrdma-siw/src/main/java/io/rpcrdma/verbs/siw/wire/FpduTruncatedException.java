package io.rpcrdma.verbs.siw.wire;

/**
 * The TCP stream ended in the middle of an FPDU: the bytes received after the last complete
 * FPDU do not form a whole one.
 */
public final class FpduTruncatedException extends FpduFramingException {

	private static final long serialVersionUID = 1L;

	public FpduTruncatedException(int received, int needed) {
		super(TerminateError.MPA_TCP_CONNECTION_LOST, "the stream ended inside an FPDU: " + received
				+ " bytes received" + (needed > 0 ? " of " + needed : "") + "; the peer closed or the connection was lost mid-message");
	}

}

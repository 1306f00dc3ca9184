package io.rpcrdma.verbs.siw.wire;

/**
 * A DDP segment header (RFC 5041 §5) is unusable: unsupported DDP version, or the ULPDU is too
 * short for the header its control field announces.
 */
public final class DdpHeaderException extends IwarpWireException {

	private static final long serialVersionUID = 1L;

	public DdpHeaderException(TerminateError terminateError, String message) {
		super(terminateError, message);
	}

}

package io.rpcrdma.verbs.siw.wire;

/**
 * An MPA Request or Reply frame (RFC 5044 §7.1, RFC 6581 §7) is malformed. The connection
 * cannot enter full operation; the Terminate error is "invalid MPA Request or Reply".
 */
public class MpaFrameException extends IwarpWireException {

	private static final long serialVersionUID = 1L;

	public MpaFrameException(String message) {
		super(TerminateError.MPA_INVALID_REQUEST_OR_REPLY, message);
	}

}

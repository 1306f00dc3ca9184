package io.rpcrdma.verbs.siw.wire;

/**
 * A tagged DDP segment does not continue its message: a later segment changed the STag or did
 * not start where the previous one ended, or the tagged offset wraps past 2^64 (RFC 5041 §5.2,
 * §7 tagged buffer errors).
 */
public final class DdpTaggedBufferException extends IwarpWireException {

	private static final long serialVersionUID = 1L;

	public DdpTaggedBufferException(TerminateError terminateError, String message) {
		super(terminateError, message);
	}

}

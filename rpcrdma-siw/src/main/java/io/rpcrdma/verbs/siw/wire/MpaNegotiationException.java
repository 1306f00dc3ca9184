package io.rpcrdma.verbs.siw.wire;

/**
 * A well-formed MPA Reply asks for something this endpoint refuses or that RFC 5044 §7.1 /
 * RFC 6581 forbid given our Request: markers, no CRC after we required it, a higher revision
 * than we offered, or a revision 2 reply to an enhanced request without enhanced parameters.
 */
public final class MpaNegotiationException extends IwarpWireException {

	private static final long serialVersionUID = 1L;

	public MpaNegotiationException(String message) {
		this(TerminateError.MPA_INVALID_REQUEST_OR_REPLY, message);
	}

	public MpaNegotiationException(TerminateError terminateError, String message) {
		super(terminateError, message);
	}

}

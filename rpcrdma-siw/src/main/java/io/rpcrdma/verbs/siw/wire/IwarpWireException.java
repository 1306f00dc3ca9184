package io.rpcrdma.verbs.siw.wire;

import java.util.Optional;

/**
 * Base type of everything the iWARP wire layer (MPA, DDP, RDMAP) reports about bytes a peer
 * sent or a frame we were asked to build. Subtypes say which rule was broken; where the RFCs
 * define a Terminate error for the problem, {@link #terminateError()} names it, so the
 * provider can tell the peer why the stream is being torn down (RFC 5040 §5.3).
 */
public class IwarpWireException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final transient TerminateError terminateError;

	public IwarpWireException(TerminateError terminateError, String message) {
		super(message);
		this.terminateError = terminateError;
	}

	/**
	 * @return the Terminate error to report to the peer, or empty when the problem is not
	 * one the peer caused (for example a frame we refused to build)
	 */
	public Optional<TerminateError> terminateError() {
		return Optional.ofNullable(this.terminateError);
	}

}

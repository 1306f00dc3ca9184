package io.rpcrdma.oncrpc.gss;

/**
 * An RPCSEC_GSS body under integrity or privacy that cannot be trusted: malformed, with a MIC
 * that does not verify, a wrap that does not open, or another call's sequence number. A
 * server answers such a call GARBAGE_ARGS (RFC 2203 §5.3.3.4, as Linux's svcauth_gss does).
 */
public class GssProtectedBodyException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message what was wrong
	 */
	public GssProtectedBodyException(String message) {
		super("RPCSEC_GSS protected body refused: " + message);
	}

}

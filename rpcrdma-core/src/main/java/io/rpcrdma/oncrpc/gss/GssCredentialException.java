package io.rpcrdma.oncrpc.gss;

/**
 * An RPCSEC_GSS credential that cannot be read: the server answers AUTH_BADCRED (RFC 2203
 * §5.3.3.3 for a version it does not speak, RFC 5531 §9 for a malformed body).
 */
public class GssCredentialException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message what was wrong
	 */
	public GssCredentialException(String message) {
		super(message);
	}

}

package io.rpcrdma.oncrpc.gss;

/**
 * Kerberos credentials could not be had: a missing keytab or ticket, an unknown principal or
 * realm, no KDC, a clock skew. The message says which and what to do.
 */
public class KerberosLoginException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message what failed and what to do
	 */
	public KerberosLoginException(String message) {
		super(message);
	}

	/**
	 * @param message what failed and what to do
	 * @param cause the JAAS or JGSS failure
	 */
	public KerberosLoginException(String message, Throwable cause) {
		super(message, cause);
	}

}

package io.rpcrdma.oncrpc.gss;

import org.ietf.jgss.GSSException;

/**
 * A GSS-API operation failed; carries the GSS major and minor status (RFC 2743 §1.2.1), as
 * RPCSEC_GSS reports them in {@code rpc_gss_init_res} (RFC 2203 §5.2.3.1).
 */
public class GssFailureException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/** GSS_S_FAILURE (RFC 2744 §3.9.1): a failure with no more specific major status. */
	public static final int FAILURE = 13 << 16;

	/** GSS_S_DEFECTIVE_TOKEN (RFC 2744 §3.9.1): a token failed consistency checks. */
	public static final int DEFECTIVE_TOKEN = 9 << 16;

	private final int major;

	private final int minor;

	/**
	 * @param what the operation
	 * @param cause JGSS's exception
	 */
	public GssFailureException(String what, GSSException cause) {
		super(what + ": " + cause.getMessage(), cause);
		this.major = cause.getMajor() << 16;
		this.minor = cause.getMinor();
	}

	/**
	 * A peer's token that JGSS could not process and, instead of refusing it with a
	 * {@link GSSException}, failed on with an unchecked exception (the JDK's AES-CTS decryption
	 * throws IllegalArgumentException for an empty ciphertext, which a forged AP-REQ can carry):
	 * it is a defective token (RFC 2743 §1.2.1.1) like any other the peer got wrong.
	 * @param what the operation
	 * @param cause what JGSS threw
	 * @return the failure, GSS_S_DEFECTIVE_TOKEN
	 */
	public static GssFailureException defectiveToken(String what, RuntimeException cause) {
		GssFailureException failure = new GssFailureException(what + ": the peer's token is defective (the JDK's"
				+ " Kerberos failed on it with " + cause + "); nothing to do here, the peer must send a valid token",
				DEFECTIVE_TOKEN, 0);
		failure.initCause(cause);
		return failure;
	}

	/**
	 * A failure the peer reported, or one found in what it sent.
	 * @param message what failed and what to do
	 * @param major the GSS major status, in RFC 2744's bit layout
	 * @param minor the mechanism's minor status
	 */
	public GssFailureException(String message, int major, int minor) {
		super(message);
		this.major = major;
		this.minor = minor;
	}

	/** @return the GSS major status, in RFC 2744's bit layout (routine errors in bits 16-23) */
	public int major() {
		return this.major;
	}

	/** @return the mechanism's minor status */
	public int minor() {
		return this.minor;
	}

}

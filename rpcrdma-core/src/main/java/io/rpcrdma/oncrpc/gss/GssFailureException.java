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

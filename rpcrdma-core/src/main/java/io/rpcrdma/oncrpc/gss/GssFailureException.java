package io.rpcrdma.oncrpc.gss;

import org.ietf.jgss.GSSException;

/**
 * A GSS-API operation failed; carries the GSS major and minor status (RFC 2743 §1.2.1), as
 * RPCSEC_GSS reports them in {@code rpc_gss_init_res} (RFC 2203 §5.2.3.1).
 */
public class GssFailureException extends RuntimeException {

	private static final long serialVersionUID = 1L;

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

	/** @return the GSS major status, in RFC 2744's bit layout (routine errors in bits 16-23) */
	public int major() {
		return this.major;
	}

	/** @return the mechanism's minor status */
	public int minor() {
		return this.minor;
	}

}

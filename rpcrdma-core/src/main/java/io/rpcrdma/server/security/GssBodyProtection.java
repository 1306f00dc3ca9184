package io.rpcrdma.server.security;

import java.nio.ByteBuffer;

import io.rpcrdma.oncrpc.gss.GssProtectedBody;
import io.rpcrdma.oncrpc.gss.GssService;
import io.rpcrdma.oncrpc.gss.GssSession;
import io.rpcrdma.xdr.XdrDecoder;

/**
 * The integrity or privacy of one admitted RPCSEC_GSS call's body (RFC 2203 §5.3.2.2,
 * §5.3.2.3): its arguments are checked and taken out before the handler reads them, its
 * results put back in the same protection before they are sent. As RFC 5666 §11 says, the
 * protected body travels whole: no item of it is placed directly.
 */
public final class GssBodyProtection {

	private final GssSession session;

	private final GssService service;

	private final int sequence;

	GssBodyProtection(GssSession session, GssService service, int sequence) {
		this.session = session;
		this.service = service;
		this.sequence = sequence;
	}

	/** @return integrity or privacy */
	public GssService service() {
		return this.service;
	}

	/**
	 * Takes the arguments out of their protection.
	 * @param arguments positioned at {@code rpc_gss_integ_data} or {@code rpc_gss_priv_data}
	 * @return the arguments, in a buffer of their own
	 * @throws io.rpcrdma.oncrpc.gss.GssProtectedBodyException if they are malformed, do not
	 * verify or unwrap, or carry another sequence number than the credential's
	 */
	public ByteBuffer unwrapArguments(XdrDecoder arguments) {
		return GssProtectedBody.unprotect(this.session, this.service, (number) -> number == this.sequence, arguments,
				arguments.remaining());
	}

	/**
	 * Puts results in their call's protection.
	 * @param results the encoded results, between position and limit
	 * @return the XDR to send in their place
	 * @throws io.rpcrdma.oncrpc.gss.GssFailureException if the context can no longer protect
	 */
	public byte[] protectResults(ByteBuffer results) {
		return GssProtectedBody.protect(this.session, this.service, this.sequence, results);
	}

}

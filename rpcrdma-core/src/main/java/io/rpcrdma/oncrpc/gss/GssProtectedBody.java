package io.rpcrdma.oncrpc.gss;

import java.nio.ByteBuffer;
import java.util.function.IntPredicate;

import io.rpcrdma.xdr.Xdr;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrException;

/**
 * The body of an RPCSEC_GSS call or reply under integrity or privacy (RFC 2203 §5.3.2.2,
 * §5.3.2.3): the arguments or results, preceded by the call's sequence number
 * ({@code rpc_gss_data_t}), either followed by a MIC ({@code rpc_gss_integ_data}) or wrapped
 * ({@code rpc_gss_priv_data}):
 *
 * <pre>
 * struct rpc_gss_integ_data { opaque databody_integ&lt;&gt;; opaque checksum&lt;&gt;; };
 * struct rpc_gss_priv_data  { opaque databody_priv&lt;&gt;; };
 * </pre>
 *
 * RFC 5666 §11: the protected body travels as one opaque, never as direct-placed items.
 */
public final class GssProtectedBody {

	/** The longest MIC token accepted: Kerberos MICs are under 100 bytes. */
	static final int MAX_CHECKSUM = 1024;

	/** What integrity or privacy adds to a body at most: length words, padding, MIC or wrap token overhead. */
	public static final int MAX_OVERHEAD = 8 + 8 + 4 + MAX_CHECKSUM;

	private GssProtectedBody() {
	}

	/**
	 * Protects a body.
	 * @param session the context
	 * @param service {@link GssService#INTEGRITY} or {@link GssService#PRIVACY}
	 * @param sequence the call's sequence number
	 * @param data the arguments or results, between position and limit; not moved
	 * @return the XDR of {@code rpc_gss_integ_data} or {@code rpc_gss_priv_data}
	 * @throws GssFailureException if the context cannot make a MIC or wrap
	 */
	public static byte[] protect(GssSession session, GssService service, int sequence, ByteBuffer data) {
		byte[] body = new byte[4 + data.remaining()];
		ByteBuffer.wrap(body).putInt(sequence).put(data.duplicate());
		byte[] token;
		byte[] checksum = null;
		if (service == GssService.INTEGRITY) {
			token = body;
			checksum = session.mic(body, 0, body.length);
		}
		else if (service == GssService.PRIVACY) {
			token = session.wrap(body, 0, body.length);
		}
		else {
			throw new IllegalArgumentException("Only integrity and privacy protect a body, not " + service);
		}
		long size = 4 + Xdr.pad(token.length) + ((checksum != null) ? 4 + Xdr.pad(checksum.length) : 0);
		ByteBuffer out = ByteBuffer.allocate((int) size);
		XdrEncoder encoder = new XdrEncoder(out).writeOpaque(token);
		if (checksum != null) {
			encoder.writeOpaque(checksum);
		}
		return out.array();
	}

	/**
	 * Reads a protected body and checks it: its MIC verifies (or it unwraps with
	 * confidentiality) and its sequence number is one the caller expects.
	 * @param session the context
	 * @param service {@link GssService#INTEGRITY} or {@link GssService#PRIVACY}
	 * @param expected which sequence numbers may head the body
	 * @param in positioned at the protected body
	 * @param maxLength the longest body accepted
	 * @return the arguments or results, a buffer of their own
	 * @throws GssProtectedBodyException if the body is malformed, does not verify or unwrap, or
	 * carries another sequence number
	 */
	public static ByteBuffer unprotect(GssSession session, GssService service, IntPredicate expected, XdrDecoder in,
			int maxLength) {
		byte[] body;
		try {
			if (service == GssService.INTEGRITY) {
				body = in.readOpaqueBytes(maxLength);
				byte[] checksum = in.readOpaqueBytes(MAX_CHECKSUM);
				if (!session.verifyMic(body, 0, body.length, checksum)) {
					throw new GssProtectedBodyException("the MIC over the body does not verify (RFC 2203 §5.3.2.2)");
				}
			}
			else if (service == GssService.PRIVACY) {
				byte[] wrapped = in.readOpaqueBytes(maxLength + MAX_OVERHEAD);
				body = session.unwrap(wrapped);
				if (body == null) {
					throw new GssProtectedBodyException("the body does not unwrap, or was not encrypted (RFC 2203 §5.3.2.3)");
				}
			}
			else {
				throw new IllegalArgumentException("Only integrity and privacy protect a body, not " + service);
			}
		}
		catch (XdrException ex) {
			throw new GssProtectedBodyException("the protected body is cut short or longer than " + maxLength
					+ " bytes: " + ex.getMessage());
		}
		if (body.length < 4) {
			throw new GssProtectedBodyException("the protected body has no sequence number");
		}
		ByteBuffer data = ByteBuffer.wrap(body);
		int sequence = data.getInt();
		if (!expected.test(sequence)) {
			// RFC 2203 §5.3.2.2: the number in the body binds it to its call.
			throw new GssProtectedBodyException("the body carries sequence number " + Integer.toUnsignedString(sequence)
					+ ", not its call's");
		}
		return data.slice();
	}

}

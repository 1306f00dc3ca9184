package io.rpcrdma.protocol;

import io.rpcrdma.oncrpc.VersionRange;
import java.util.Objects;

/**
 * Builds the RDMA_ERROR a responder sends for a header it cannot accept (RFC 5666 §4.2,
 * RFC 8166 §4.5, draft-cel-nfsv4-rpcrdma-version-two-00 §3.1 and §4.2). The reply echoes the
 * offending XID so the requester can fail that RPC. A requester does not send these; it drops
 * what it cannot parse (RFC 8166 §4.5.2), and nobody answers an RDMA_ERROR with another.
 */
public final class RdmaErrorReplies {

	private RdmaErrorReplies() {
	}

	/**
	 * The error for a malformed header of a supported version: ERR_CHUNK in Version 1 (RFC 5666
	 * §4.2, RFC 8166 §4.5.2), RDMA_ERR_BAD_HEADER in Version 2
	 * (draft-cel-nfsv4-rpcrdma-version-two-00 §4.2), in the version the requester used
	 * (draft §5.3: replies use the requester's version).
	 * @param version the malformed header's rdma_vers, 1 or 2
	 * @param xid the malformed header's rdma_xid
	 * @param credits the credit grant to report
	 * @return the header to send
	 */
	public static RdmaErrorHeader forMalformed(int version, int xid, int credits) {
		switch (version) {
			case RpcRdmaConstants.VERSION_1:
				return new RdmaErrChunk(xid, credits);
			case RpcRdmaConstants.VERSION_2:
				return new Rdma2ErrBadHeader(xid, credits);
			default:
				throw new IllegalArgumentException("No malformed-header error is defined for RPC-over-RDMA version "
						+ Integer.toUnsignedString(version) + "; answer unsupported versions with ERR_VERS");
		}
	}

	/**
	 * The error for a {@link HeaderDecodeResult.Malformed} result.
	 * @param malformed the decode result
	 * @param credits the credit grant to report
	 * @return ERR_CHUNK or RDMA_ERR_BAD_HEADER, per the header's version
	 */
	public static RdmaErrorHeader forMalformed(HeaderDecodeResult.Malformed malformed, int credits) {
		return forMalformed(malformed.version(), malformed.xid(), credits);
	}

	/**
	 * ERR_VERS reporting the versions this receiver supports (RFC 5666 §4.2). Its rdma_vers is
	 * the lowest supported version, which RFC 5666 §4.2 allows ("any value otherwise valid at
	 * the receiver") and which every peer, whatever it speaks, can at least frame.
	 * @param unsupported the decode result
	 * @param supported the versions this receiver supports
	 * @param credits the credit grant to report
	 * @return the header to send
	 */
	public static ErrVers forUnsupportedVersion(HeaderDecodeResult.UnsupportedVersion unsupported,
			VersionRange supported, int credits) {
		Objects.requireNonNull(supported, "supported must not be null");
		return new ErrVers(unsupported.xid(), supported.low(), credits, supported);
	}

	/**
	 * RDMA_ERR_INVAL_OPTION for an RDMA_OPTIONAL whose rdma_opttype this receiver does not
	 * recognize or support (draft-cel-nfsv4-rpcrdma-version-two-00 §3.1: same rdma_xid,
	 * rdma_proc RDMA_ERROR, rdma_err RDMA_ERR_INVAL_OPTION).
	 * @param optional the unsupported option
	 * @param credits the credit grant to report
	 * @return the header to send
	 */
	public static Rdma2ErrInvalOption forInvalidOption(Rdma2Optional optional, int credits) {
		return new Rdma2ErrInvalOption(optional.xid(), credits);
	}

}

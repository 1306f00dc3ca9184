package io.rpcrdma.xdr;

/**
 * A count or length in the data is larger than the limit the receiver allows. Raised before
 * anything is allocated from that count (RFC 4506 §4.10/§4.13 bounded arrays and opaques).
 */
public final class XdrLimitExceededException extends XdrException {

	private static final long serialVersionUID = 1L;

	public XdrLimitExceededException(String what, long value, long limit) {
		super("XDR " + what + " of " + value + " exceeds the limit of " + limit
				+ "; the peer sent more than this receiver accepts (raise the limit only if the peer is trusted)");
	}

}

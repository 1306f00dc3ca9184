package io.rpcrdma.xdr;

/**
 * Base type of everything the XDR codec (RFC 4506) reports about data it cannot encode or
 * decode. Subtypes say which rule was broken.
 */
public class XdrException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public XdrException(String message) {
		super(message);
	}

}

package io.rpcrdma.xdr;

/**
 * A value is outside what its XDR type allows, for example a boolean other than 0 or 1
 * (RFC 4506 §4.4) or a string that is not valid UTF-8.
 */
public final class XdrInvalidValueException extends XdrException {

	private static final long serialVersionUID = 1L;

	public XdrInvalidValueException(String message) {
		super(message);
	}

}

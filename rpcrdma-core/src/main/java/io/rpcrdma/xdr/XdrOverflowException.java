package io.rpcrdma.xdr;

/**
 * The encoder's buffer has no room for the next item. The caller sized the buffer too small
 * for the message; encode into a larger buffer or convey the data by chunks.
 */
public final class XdrOverflowException extends XdrException {

	private static final long serialVersionUID = 1L;

	public XdrOverflowException(String what, long needed, int remaining) {
		super("XDR buffer overflow while writing " + what + ": needed " + needed + " bytes but only " + remaining
				+ " remain; encode into a larger buffer");
	}

}

package io.rpcrdma.xdr;

/**
 * Decoding needed more bytes than the buffer holds: the sender's message is truncated or one
 * of its lengths is wrong.
 */
public final class XdrTruncatedException extends XdrException {

	private static final long serialVersionUID = 1L;

	public XdrTruncatedException(String what, long needed, int remaining) {
		super("XDR data truncated while reading " + what + ": needed " + needed + " bytes but only " + remaining
				+ " remain; the message is shorter than its own lengths say");
	}

}

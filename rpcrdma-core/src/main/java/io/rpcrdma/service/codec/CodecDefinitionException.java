package io.rpcrdma.service.codec;

/**
 * A Java type cannot be given an XDR codec: it is unsupported, ambiguous, or defined in a way
 * XDR cannot represent. Raised when codecs are built (at bind time), never per call; the
 * message names the type and says what is supported or how to plug a codec in.
 */
public class CodecDefinitionException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	public CodecDefinitionException(String message) {
		super(message);
	}

	public CodecDefinitionException(String message, Throwable cause) {
		super(message, cause);
	}

}

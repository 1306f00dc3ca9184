package io.rpcrdma.protocol;

/**
 * Raised inside {@link TransportHeaderDecoder} when a header breaks a rule, and turned into a
 * {@link HeaderDecodeResult.Malformed} before it leaves the decoder. No stack trace is filled
 * in: a peer that sends garbage should not make the receiver pay for one per message.
 */
final class MalformedHeaderException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final HeaderFault fault;

	MalformedHeaderException(HeaderFault fault, String message) {
		super(message + " [" + fault + ", " + fault.reference() + "]", null, false, false);
		this.fault = fault;
	}

	HeaderFault fault() {
		return this.fault;
	}

}

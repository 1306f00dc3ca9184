package io.rpcrdma.verbs.siw.wire;

import java.time.Duration;

/**
 * The peer sent part of an FPDU (RFC 5044 §4) and then nothing more for the FPDU timeout. MPA
 * has no error for a peer that stops mid-frame; the stream is as good as lost (LLP "TCP
 * connection lost"), and waiting longer would let the peer hold the connection's receive path,
 * and the memory a tagged segment names, for as long as it likes.
 */
public final class FpduStalledException extends FpduFramingException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param received the bytes of the FPDU's payload that came
	 * @param needed the payload's length
	 * @param timeout how long the rest was waited for
	 * @param setting the setting that bounds the wait, named so that the message says what to
	 * change
	 */
	public FpduStalledException(int received, int needed, Duration timeout, String setting) {
		super(TerminateError.MPA_TCP_CONNECTION_LOST, "the peer sent " + received + " of the " + needed
				+ " payload bytes of an FPDU and nothing more within " + timeout.toMillis() + " ms (" + setting + ")");
	}

}

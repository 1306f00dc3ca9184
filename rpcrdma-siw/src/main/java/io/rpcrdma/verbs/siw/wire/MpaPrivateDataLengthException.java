package io.rpcrdma.verbs.siw.wire;

/**
 * An MPA frame's private data is longer than allowed: RFC 5044 §7.1 caps PD_Length at 512
 * bytes and a codec may be configured lower (Linux siw accepts at most 256). The length is
 * checked from the header, before any private data is read or buffered.
 */
public final class MpaPrivateDataLengthException extends MpaFrameException {

	private static final long serialVersionUID = 1L;

	private final int length;

	private final int limit;

	public MpaPrivateDataLengthException(int length, int limit) {
		super("MPA private data length " + length + " exceeds the limit of " + limit
				+ " bytes; shorten the private data or raise the codec's limit (RFC 5044 §7.1 allows up to 512)");
		this.length = length;
		this.limit = limit;
	}

	/** @return the length the frame declares */
	public int length() {
		return this.length;
	}

	/** @return the limit in force */
	public int limit() {
		return this.limit;
	}

}

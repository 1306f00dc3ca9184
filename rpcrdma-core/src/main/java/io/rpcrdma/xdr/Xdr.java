package io.rpcrdma.xdr;

/**
 * Constants and small helpers of the XDR standard (RFC 4506).
 */
public final class Xdr {

	/** RFC 4506 §3: every item occupies a multiple of four bytes. */
	public static final int UNIT = 4;

	private Xdr() {
	}

	/**
	 * Returns {@code length} rounded up to the next multiple of four, as RFC 4506 §4.9/§4.10
	 * pads opaque data.
	 * @param length a non-negative length
	 * @return the padded length
	 */
	public static long pad(long length) {
		return (length + 3) & ~3L;
	}

	/**
	 * Returns the number of zero bytes that follow {@code length} bytes of opaque data.
	 * @param length a non-negative length
	 * @return 0 to 3
	 */
	public static int padding(long length) {
		return (int) (-length & 3);
	}

}

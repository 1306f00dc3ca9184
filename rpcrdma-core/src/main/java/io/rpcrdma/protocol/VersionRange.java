package io.rpcrdma.protocol;

/**
 * An inclusive range of RPC-over-RDMA versions, as an ERR_VERS reply reports them in
 * rdma_vers_low and rdma_vers_high (RFC 5666 §4.2). Bounds are unsigned 32-bit values.
 *
 * @param low the lowest version, inclusive
 * @param high the highest version, inclusive, not below {@code low}
 */
public record VersionRange(int low, int high) {

	/** Version 1 only (RFC 5666, RFC 8166). */
	public static final VersionRange VERSION_1_ONLY = new VersionRange(RpcRdmaConstants.VERSION_1,
			RpcRdmaConstants.VERSION_1);

	/** Versions 1 and 2, what this library implements. */
	public static final VersionRange VERSIONS_1_AND_2 = new VersionRange(RpcRdmaConstants.VERSION_1,
			RpcRdmaConstants.VERSION_2);

	public VersionRange {
		if (Integer.compareUnsigned(low, high) > 0) {
			throw new IllegalArgumentException("Version range low " + Integer.toUnsignedString(low)
					+ " is above high " + Integer.toUnsignedString(high));
		}
	}

	/**
	 * @param version a version number
	 * @return whether the range includes it
	 */
	public boolean contains(int version) {
		return Integer.compareUnsigned(this.low, version) <= 0 && Integer.compareUnsigned(version, this.high) <= 0;
	}

}

package io.rpcrdma.oncrpc;

/**
 * An inclusive range of unsigned 32-bit version numbers. One type serves every layer that
 * reports a version range: the ONC RPC program versions a server supports, as a PROG_MISMATCH
 * reply carries them in mismatch_info (RFC 5531 §9), and the RPC-over-RDMA versions an ERR_VERS
 * reply carries in rdma_vers_low and rdma_vers_high (RFC 5666 §4.2). It lives in
 * {@code io.rpcrdma.oncrpc}, the lowest layer that needs it, so the protocol, transport, server
 * and service packages all share it.
 *
 * @param low the lowest version, inclusive
 * @param high the highest version, inclusive, not below {@code low}
 */
public record VersionRange(int low, int high) {

	/** RPC-over-RDMA Version 1 only (RFC 5666, RFC 8166); {@code RpcRdmaConstants.VERSION_1}. */
	public static final VersionRange VERSION_1_ONLY = new VersionRange(1, 1);

	/** RPC-over-RDMA Versions 1 and 2, what this library implements. */
	public static final VersionRange VERSIONS_1_AND_2 = new VersionRange(1, 2);

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

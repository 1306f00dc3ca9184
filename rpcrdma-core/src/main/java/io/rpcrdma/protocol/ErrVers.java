package io.rpcrdma.protocol;

import io.rpcrdma.oncrpc.VersionRange;

/**
 * RDMA_ERROR with ERR_VERS (RFC 5666 §4.2, §4.3; RDMA_ERR_VERS in
 * draft-cel-nfsv4-rpcrdma-version-two-00 §4.2): the sender does not support the version it was
 * sent and reports the inclusive range it does support.
 * <p>
 * The layout is the same in every version, and the first four words keep fixed offsets in all
 * versions (RFC 5666 §4.1), so this record carries any {@code version}: RFC 5666 §4.2 lets the
 * sender put in rdma_vers "any value otherwise valid at the receiver", and a requester must be
 * able to read this reply even when that value is one it does not speak.
 *
 * @param xid rdma_xid of the message that had the unsupported version
 * @param version rdma_vers of this reply
 * @param credits rdma_credit (unsigned)
 * @param low rdma_vers_low, the lowest supported version
 * @param high rdma_vers_high, the highest supported version, not below {@code low}
 */
public record ErrVers(int xid, int version, int credits, int low, int high) implements RdmaErrorHeader {

	public ErrVers {
		if (Integer.compareUnsigned(low, high) > 0) {
			throw new IllegalArgumentException("ERR_VERS rdma_vers_low " + Integer.toUnsignedString(low)
					+ " is above rdma_vers_high " + Integer.toUnsignedString(high));
		}
	}

	/** Builds an ERR_VERS reply reporting {@code supported}. */
	public ErrVers(int xid, int version, int credits, VersionRange supported) {
		this(xid, version, credits, supported.low(), supported.high());
	}

	@Override
	public int errorCode() {
		return RpcRdmaConstants.ERR_VERS;
	}

	/** @return rdma_vers_low and rdma_vers_high as a range */
	public VersionRange supported() {
		return new VersionRange(this.low, this.high);
	}

}

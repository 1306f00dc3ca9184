package io.rpcrdma.transport;

import io.rpcrdma.oncrpc.VersionRange;

/**
 * The responder supports no RPC-over-RDMA version this requester speaks (ERR_VERS with a
 * disjoint range, RFC 5666 §4.2).
 */
public class VersionNegotiationException extends TransportException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param ours what this side speaks
	 * @param theirs what the responder said it speaks
	 */
	public VersionNegotiationException(VersionRange ours, VersionRange theirs) {
		super("The responder speaks RPC-over-RDMA versions " + theirs.low() + " to " + theirs.high()
				+ " but this side only " + ours.low() + " to " + ours.high()
				+ "; configure a common version on either side");
	}

}

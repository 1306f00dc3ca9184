package io.rpcrdma.verbs.siw.wire;

/**
 * Why a peer's access to local memory was refused, in the terms the Terminate message can
 * express (RFC 5040 §7, RFC 5041 §7). The provider maps its own access-check outcome onto
 * this and sends the Terminate error that results.
 */
public enum RemoteAccessError {

	/** The STag is unknown or has been invalidated. */
	INVALID_STAG(TerminateError.RDMAP_INVALID_STAG, TerminateError.DDP_TAGGED_INVALID_STAG),

	/** The access falls outside the region's base and bounds. */
	BASE_OR_BOUNDS(TerminateError.RDMAP_BASE_OR_BOUNDS_VIOLATION, TerminateError.DDP_TAGGED_BASE_OR_BOUNDS_VIOLATION),

	/** The region does not grant the access (remote read or write) asked for. */
	ACCESS_RIGHTS(TerminateError.RDMAP_ACCESS_RIGHTS_VIOLATION, TerminateError.DDP_TAGGED_INVALID_STAG),

	/** The STag belongs to another protection domain or stream than this connection. */
	WRONG_PROTECTION_DOMAIN(TerminateError.RDMAP_STAG_NOT_ASSOCIATED, TerminateError.DDP_TAGGED_STAG_NOT_ASSOCIATED);

	private final TerminateError rdmap;

	private final TerminateError ddpTagged;

	RemoteAccessError(TerminateError rdmap, TerminateError ddpTagged) {
		this.rdmap = rdmap;
		this.ddpTagged = ddpTagged;
	}

	/**
	 * The RDMAP remote protection error (layer 0, error type 1) for this refusal: the
	 * Terminate to send when RDMAP validates an access, as for the data source of an RDMA Read
	 * Request, and the only form that can say "access rights" (RFC 5040 §7).
	 * @return layer 0, etype 1, and ecode 0x00 (invalid STag), 0x01 (base or bounds), 0x02
	 * (access rights) or 0x03 (STag not associated with the stream)
	 */
	public TerminateError terminateError() {
		return this.rdmap;
	}

	/**
	 * The DDP tagged buffer error (layer 1, error type 1) for this refusal, for a data sink
	 * check made while placing a tagged segment (RDMA Write, Read Response). RFC 5041 has no
	 * access-rights code, so, like Linux siw ({@code siw_tagged_error}), that case reports an
	 * invalid STag.
	 * @return layer 1, etype 1, and ecode 0x00 (invalid STag), 0x01 (base or bounds) or 0x02
	 * (STag not associated with the stream)
	 */
	public TerminateError ddpTaggedTerminateError() {
		return this.ddpTagged;
	}

}

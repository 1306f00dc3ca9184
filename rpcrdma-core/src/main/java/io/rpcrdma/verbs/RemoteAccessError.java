package io.rpcrdma.verbs;

/**
 * Why a remote access to registered memory was refused. Fine-grained on purpose: the
 * software iWARP provider reports each one to the peer as an RDMAP Terminate with a
 * Remote Protection Error code (RFC 5040 Terminate Message, Layer RDMAP,
 * error type 0x0), given by {@link #rdmapErrorCode()}.
 */
public enum RemoteAccessError {

	/** No region has this STag: never registered, deregistered, or a stale/guessed key. */
	INVALID_STAG(0x00),

	/** The region exists but its STag was invalidated (locally or by Send with Invalidate). */
	STAG_INVALIDATED(0x00),

	/** The access is not wholly inside the region: base or bounds violation. */
	BASE_OR_BOUNDS(0x01),

	/** The region does not grant the needed access flag (REMOTE_READ or REMOTE_WRITE). */
	ACCESS_RIGHTS(0x02),

	/** The region belongs to another protection domain than the accessing queue pair. */
	PROTECTION_DOMAIN(0x03),

	/** The region is scoped to another connection (queue pair) than the accessing one. */
	WRONG_QUEUE_PAIR(0x03),

	/** Tagged offset plus length wraps past 2^64. */
	TO_WRAP(0x04),

	/** A Send with Invalidate named an STag the receiver cannot invalidate. */
	STAG_CANNOT_BE_INVALIDATED(0x09);

	private final int rdmapErrorCode;

	RemoteAccessError(int rdmapErrorCode) {
		this.rdmapErrorCode = rdmapErrorCode;
	}

	/**
	 * The RDMAP Remote Protection Error code of RFC 5040 for this error (0x00 invalid STag,
	 * 0x01 base or bounds violation, 0x02 access rights violation, 0x03 STag not associated
	 * with RDMAP stream, 0x04 TO wrap, 0x09 STag cannot be invalidated).
	 * @return the error code
	 */
	public int rdmapErrorCode() {
		return this.rdmapErrorCode;
	}

}

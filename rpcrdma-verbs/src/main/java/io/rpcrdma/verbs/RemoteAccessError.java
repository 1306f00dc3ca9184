package io.rpcrdma.verbs;

/**
 * Why a remote access to registered memory was refused. The software iWARP provider reports
 * each one to the peer as an RDMAP Terminate with a Remote Protection Error code (RFC 5040
 * Terminate Message, Layer RDMAP, error type 0x0), given by {@link #rdmapErrorCode()}.
 * <p>
 * There is no "another protection domain" or "another connection": memory not offered to the
 * accessing connection is refused as {@link #INVALID_STAG}, exactly like an STag that does not
 * exist, so a peer learns nothing about what other connections hold (RFC 5042 §5.1). The RFC's
 * "STag not associated with RDMAP stream" (0x03) is therefore never sent.
 */
public enum RemoteAccessError {

	/**
	 * No region offered to the accessing connection has this STag: never registered,
	 * deregistered, a stale or guessed key, memory registered for local access only, or memory
	 * of another protection domain or offered to another connection.
	 */
	INVALID_STAG(0x00),

	/** The region exists but its STag was invalidated (locally or by Send with Invalidate). */
	STAG_INVALIDATED(0x00),

	/** The access is not wholly inside the region: base or bounds violation. */
	BASE_OR_BOUNDS(0x01),

	/** The region does not grant the needed access flag (REMOTE_READ or REMOTE_WRITE). */
	ACCESS_RIGHTS(0x02),

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
	 * 0x01 base or bounds violation, 0x02 access rights violation, 0x04 TO wrap, 0x09 STag
	 * cannot be invalidated).
	 * @return the error code
	 */
	public int rdmapErrorCode() {
		return this.rdmapErrorCode;
	}

}

package io.rpcrdma.protocol;

/**
 * Why a transport header was found malformed. Every fault is answered the same way on the
 * wire, ERR_CHUNK in Version 1 or RDMA_ERR_BAD_HEADER in Version 2 (RFC 5666 §4.2,
 * RFC 8166 §4.5.2); the fault tells logs, metrics and tests which rule was broken.
 */
public enum HeaderFault {

	/** The message ends before the structure its own fields announce (RFC 4506 §3). */
	TRUNCATED("RFC 8166 §4.5.2"),

	/** rdma_proc is not a procedure of the header's version (RFC 5666 §4.3 rdma_proc). */
	UNKNOWN_PROCEDURE("RFC 8166 §4.5.2"),

	/**
	 * A Version 2 header uses RDMA_MSGP or RDMA_DONE, which
	 * draft-cel-nfsv4-rpcrdma-version-two-00 §4.2 marks "Reserved".
	 */
	RESERVED_PROCEDURE("draft-cel-nfsv4-rpcrdma-version-two-00 §4.2"),

	/** A list's "value follows" discriminator is neither 0 nor 1 (RFC 4506 §4.19 optional-data). */
	INVALID_DISCRIMINATOR("RFC 4506 §4.19"),

	/** A chunk has more segments than {@link HeaderLimits#maxSegmentsPerChunk()}. */
	SEGMENT_LIMIT("HeaderLimits.maxSegmentsPerChunk"),

	/** The read and write lists hold more chunks than {@link HeaderLimits#maxChunks()}. */
	CHUNK_LIMIT("HeaderLimits.maxChunks"),

	/** The chunks describe more bytes than {@link HeaderLimits#maxTotalChunkBytes()}. */
	CHUNK_BYTES_LIMIT("HeaderLimits.maxTotalChunkBytes"),

	/** A segment's offset plus length passes 2^64, which no registered memory can cover. */
	SEGMENT_WRAPS("RFC 8166 §3.4.3"),

	/** rdma_optinfo is longer than {@link HeaderLimits#maxOptionalInfoLength()}. */
	OPTIONAL_INFO_LIMIT("HeaderLimits.maxOptionalInfoLength"),

	/** rdma_err is not an error code of the header's version (RFC 8166 §4.1.2 has no default arm). */
	UNKNOWN_ERROR_CODE("RFC 8166 §4.1.2"),

	/** ERR_VERS reports rdma_vers_low above rdma_vers_high, not an inclusive range (RFC 5666 §4.2). */
	INVALID_VERSION_RANGE("RFC 5666 §4.2"),

	/** RDMA_MSG or RDMA_MSGP without an RPC message of at least XID and msg_type after it. */
	MISSING_RPC_MESSAGE("RFC 5666 §4.1"),

	/** Bytes follow a header after which no RPC message may follow. */
	UNEXPECTED_RPC_MESSAGE("draft-cel-nfsv4-rpcrdma-version-two-00 §4.2"),

	/** rdma_xid differs from the XID of the RPC message that follows (RFC 5666 §4.1). */
	XID_MISMATCH("RFC 8166 §4.5.2"),

	/** RDMA_NOMSG with neither a Position-Zero Read chunk nor a reply chunk to hold the message. */
	NOMSG_WITHOUT_MESSAGE_CHUNK("RFC 8166 §4.5.2"),

	/** A message that carries its RPC message inline also has a Position-Zero Read chunk. */
	POSITION_ZERO_WITH_INLINE_MESSAGE("RFC 8166 §3.5.3"),

	/**
	 * The rdma_optinfo of an option this receiver supports is not what the option defines
	 * (draft-cel-nfsv4-rpcrdma-version-two-00 §3.2; {@link TraceContextOption}).
	 */
	INVALID_OPTION_INFO("draft-cel-nfsv4-rpcrdma-version-two-00 §3.2");

	private final String reference;

	HeaderFault(String reference) {
		this.reference = reference;
	}

	/** @return the specification section or limit this fault breaks */
	public String reference() {
		return this.reference;
	}

}

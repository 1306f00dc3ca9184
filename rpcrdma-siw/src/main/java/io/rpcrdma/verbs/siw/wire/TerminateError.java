package io.rpcrdma.verbs.siw.wire;

import java.util.Optional;

/**
 * The error a Terminate message reports: layer, error type and error code of the Terminate
 * Control field (RFC 5040 §4.8), with the exact values of RFC 5040 §7 (RDMAP), RFC 5041 §7
 * (DDP), RFC 5044 §8 (MPA) and RFC 6581 §7 (enhanced MPA connection setup).
 * <p>
 * The same triples are used by Linux SoftiWARP (iwarp.h: {@code term_elayer}, {@code ddp_etype},
 * {@code ddp_ecode}, {@code rdmap_etype}, {@code rdmap_ecode}, {@code llp_ecode}) and decoded by
 * Wireshark's iWARP dissector, so a peer shows the error the way we meant it.
 */
public enum TerminateError {

	// RDMAP layer (0), error type 0: local catastrophic error
	/** RFC 5040 §7: local catastrophic error of the RDMAP layer. */
	RDMAP_LOCAL_CATASTROPHIC(TerminateError.LAYER_RDMAP, 0x0, 0x00),

	// RDMAP layer, error type 1: remote protection error
	/** RFC 5040 §7: invalid STag. */
	RDMAP_INVALID_STAG(TerminateError.LAYER_RDMAP, 0x1, 0x00),
	/** RFC 5040 §7: base or bounds violation. */
	RDMAP_BASE_OR_BOUNDS_VIOLATION(TerminateError.LAYER_RDMAP, 0x1, 0x01),
	/** RFC 5040 §7: access rights violation. */
	RDMAP_ACCESS_RIGHTS_VIOLATION(TerminateError.LAYER_RDMAP, 0x1, 0x02),
	/** RFC 5040 §7: STag not associated with the RDMAP Stream (wrong protection domain). */
	RDMAP_STAG_NOT_ASSOCIATED(TerminateError.LAYER_RDMAP, 0x1, 0x03),
	/** RFC 5040 §7: tagged offset wrap. */
	RDMAP_TO_WRAP(TerminateError.LAYER_RDMAP, 0x1, 0x04),
	/** RFC 5040 §7: STag cannot be invalidated (protection error form). */
	RDMAP_STAG_CANNOT_BE_INVALIDATED(TerminateError.LAYER_RDMAP, 0x1, 0x09),
	/** RFC 5040 §7: unspecified remote protection error. */
	RDMAP_UNSPECIFIED_PROTECTION_ERROR(TerminateError.LAYER_RDMAP, 0x1, 0xFF),

	// RDMAP layer, error type 2: remote operation error
	/** RFC 5040 §7: invalid RDMAP version. */
	RDMAP_INVALID_VERSION(TerminateError.LAYER_RDMAP, 0x2, 0x05),
	/** RFC 5040 §7: unexpected opcode. */
	RDMAP_UNEXPECTED_OPCODE(TerminateError.LAYER_RDMAP, 0x2, 0x06),
	/** RFC 5040 §7: catastrophic error, localized to the RDMAP Stream. */
	RDMAP_CATASTROPHIC_STREAM(TerminateError.LAYER_RDMAP, 0x2, 0x07),
	/** RFC 5040 §7: catastrophic error, global. */
	RDMAP_CATASTROPHIC_GLOBAL(TerminateError.LAYER_RDMAP, 0x2, 0x08),
	/** RFC 5040 §7: STag cannot be invalidated (operation error form). */
	RDMAP_STAG_CANNOT_BE_INVALIDATED_OPERATION(TerminateError.LAYER_RDMAP, 0x2, 0x09),
	/** RFC 5040 §7: unspecified remote operation error. */
	RDMAP_UNSPECIFIED_OPERATION_ERROR(TerminateError.LAYER_RDMAP, 0x2, 0xFF),

	// DDP layer (1), error type 0: local catastrophic
	/** RFC 5041 §7: local catastrophic error of the DDP layer. */
	DDP_LOCAL_CATASTROPHIC(TerminateError.LAYER_DDP, 0x0, 0x00),

	// DDP layer, error type 1: tagged buffer error
	/** RFC 5041 §7: tagged buffer, invalid STag. */
	DDP_TAGGED_INVALID_STAG(TerminateError.LAYER_DDP, 0x1, 0x00),
	/** RFC 5041 §7: tagged buffer, base or bounds violation. */
	DDP_TAGGED_BASE_OR_BOUNDS_VIOLATION(TerminateError.LAYER_DDP, 0x1, 0x01),
	/** RFC 5041 §7: tagged buffer, STag not associated with the DDP Stream. */
	DDP_TAGGED_STAG_NOT_ASSOCIATED(TerminateError.LAYER_DDP, 0x1, 0x02),
	/** RFC 5041 §7: tagged buffer, TO wrap. */
	DDP_TAGGED_TO_WRAP(TerminateError.LAYER_DDP, 0x1, 0x03),
	/** RFC 5041 §7: tagged buffer, invalid DDP version. */
	DDP_TAGGED_INVALID_VERSION(TerminateError.LAYER_DDP, 0x1, 0x04),

	// DDP layer, error type 2: untagged buffer error
	/** RFC 5041 §7: untagged buffer, invalid queue number. */
	DDP_UNTAGGED_INVALID_QN(TerminateError.LAYER_DDP, 0x2, 0x01),
	/** RFC 5041 §7: untagged buffer, invalid MSN, no buffer available. */
	DDP_UNTAGGED_INVALID_MSN_NO_BUFFER(TerminateError.LAYER_DDP, 0x2, 0x02),
	/** RFC 5041 §7: untagged buffer, invalid MSN, MSN range is not valid. */
	DDP_UNTAGGED_INVALID_MSN_RANGE(TerminateError.LAYER_DDP, 0x2, 0x03),
	/** RFC 5041 §7: untagged buffer, invalid message offset. */
	DDP_UNTAGGED_INVALID_MO(TerminateError.LAYER_DDP, 0x2, 0x04),
	/** RFC 5041 §7: untagged buffer, DDP message too long for the available buffer. */
	DDP_UNTAGGED_MESSAGE_TOO_LONG(TerminateError.LAYER_DDP, 0x2, 0x05),
	/** RFC 5041 §7: untagged buffer, invalid DDP version. */
	DDP_UNTAGGED_INVALID_VERSION(TerminateError.LAYER_DDP, 0x2, 0x06),

	// LLP layer (2), error type 0: MPA
	/** RFC 5044 §8: TCP connection closed, terminated or lost. */
	MPA_TCP_CONNECTION_LOST(TerminateError.LAYER_LLP, 0x0, 0x01),
	/** RFC 5044 §8: received MPA CRC does not match the computed value. */
	MPA_CRC_ERROR(TerminateError.LAYER_LLP, 0x0, 0x02),
	/**
	 * RFC 5044 §8: MPA Marker and ULPDU Length field mismatch. Without markers this is the
	 * code MPA has for an FPDU whose framing cannot be trusted (length or pad wrong).
	 */
	MPA_FPDU_FRAMING_ERROR(TerminateError.LAYER_LLP, 0x0, 0x03),
	/** RFC 5044 §8: invalid MPA Request or Reply frame. */
	MPA_INVALID_REQUEST_OR_REPLY(TerminateError.LAYER_LLP, 0x0, 0x04),
	/** RFC 6581 §7: local catastrophic error during enhanced connection setup. */
	MPA_LOCAL_CATASTROPHIC(TerminateError.LAYER_LLP, 0x0, 0x05),
	/** RFC 6581 §7: insufficient IRD resources. */
	MPA_INSUFFICIENT_IRD(TerminateError.LAYER_LLP, 0x0, 0x06),
	/** RFC 6581 §7: no matching RTR option. */
	MPA_NO_MATCHING_RTR(TerminateError.LAYER_LLP, 0x0, 0x07);

	/** Terminate Control layer value of RDMAP (RFC 5040 §4.8). */
	public static final int LAYER_RDMAP = 0x0;

	/** Terminate Control layer value of DDP (RFC 5040 §4.8). */
	public static final int LAYER_DDP = 0x1;

	/** Terminate Control layer value of the lower layer protocol, here MPA (RFC 5040 §4.8). */
	public static final int LAYER_LLP = 0x2;

	private static final TerminateError[] VALUES = values();

	private final int layer;

	private final int errorType;

	private final int errorCode;

	TerminateError(int layer, int errorType, int errorCode) {
		this.layer = layer;
		this.errorType = errorType;
		this.errorCode = errorCode;
	}

	/** @return the 4-bit layer */
	public int layer() {
		return this.layer;
	}

	/** @return the 4-bit error type (etype) */
	public int errorType() {
		return this.errorType;
	}

	/** @return the 8-bit error code (ecode) */
	public int errorCode() {
		return this.errorCode;
	}

	/**
	 * Looks a received triple up.
	 * @param layer the 4-bit layer
	 * @param errorType the 4-bit error type
	 * @param errorCode the 8-bit error code
	 * @return the error, or empty when the peer sent a combination no RFC defines
	 */
	public static Optional<TerminateError> of(int layer, int errorType, int errorCode) {
		for (TerminateError error : VALUES) {
			if (error.layer == layer && error.errorType == errorType && error.errorCode == errorCode) {
				return Optional.of(error);
			}
		}
		return Optional.empty();
	}

}

package io.rpcrdma.verbs.siw.wire;

/**
 * The two control bytes that open every DDP segment: DDP's control field (RFC 5041 §5.1) and
 * RDMAP's control field, which occupies DDP's RsvdULP[0:7] (RFC 5040 §4.2).
 *
 * <pre>
 *  0 1 2 3 4 5 6 7   0 1 2 3 4 5 6 7
 * +-+-+-+-+-+-+-+-+ +-+-+-+-+-+-+-+-+
 * |T|L| Resrv | DV| | RV|Rsv| Opcode|
 * +-+-+-+-+-+-+-+-+ +-+-+-+-+-+-+-+-+
 * </pre>
 *
 * Reserved bits are sent as zero and ignored on receipt.
 */
final class DdpControl {

	static final int TAGGED = 0x80;

	static final int LAST = 0x40;

	static final int DDP_VERSION = 1;

	static final int RDMAP_VERSION = 1;

	private DdpControl() {
	}

	static int ddpByte(boolean tagged, boolean last) {
		return (tagged ? TAGGED : 0) | (last ? LAST : 0) | DDP_VERSION;
	}

	static int rdmapByte(RdmapOpcode opcode) {
		return RDMAP_VERSION << 6 | opcode.code();
	}

	/**
	 * Checks the control bytes of a received segment (RFC 5041 §5.1, RFC 5040 §4.2).
	 * @return the opcode
	 */
	static RdmapOpcode check(int ddpByte, int rdmapByte) {
		boolean tagged = (ddpByte & TAGGED) != 0;
		int ddpVersion = ddpByte & 0x03;
		if (ddpVersion != DDP_VERSION) {
			throw new DdpHeaderException(
					tagged ? TerminateError.DDP_TAGGED_INVALID_VERSION : TerminateError.DDP_UNTAGGED_INVALID_VERSION,
					"DDP version " + ddpVersion + " is not supported; only version 1 (RFC 5041) is");
		}
		int rdmapVersion = rdmapByte >>> 6;
		if (rdmapVersion != RDMAP_VERSION) {
			throw new RdmapHeaderException(TerminateError.RDMAP_INVALID_VERSION,
					"RDMAP version " + rdmapVersion + " is not supported; only version 1 (RFC 5040) is");
		}
		RdmapOpcode opcode = RdmapOpcode.ofCode(rdmapByte & 0x0F);
		if (opcode == null) {
			throw new RdmapHeaderException(TerminateError.RDMAP_UNEXPECTED_OPCODE,
					"RDMAP opcode " + (rdmapByte & 0x0F) + " is not defined by RFC 5040");
		}
		if (opcode.tagged() != tagged) {
			throw new RdmapHeaderException(TerminateError.RDMAP_UNEXPECTED_OPCODE, opcode + " arrived as a "
					+ (tagged ? "tagged" : "untagged") + " DDP segment but RFC 5040 §4.3 carries it "
					+ (opcode.tagged() ? "tagged" : "untagged"));
		}
		return opcode;
	}

}

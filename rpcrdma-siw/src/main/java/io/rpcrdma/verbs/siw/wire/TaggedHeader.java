package io.rpcrdma.verbs.siw.wire;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The header of a tagged DDP segment carrying RDMAP (RFC 5041 §5.2, RFC 5040 §4.3): used by
 * RDMA Write and RDMA Read Response.
 *
 * <pre>
 * +-+-+-------+---+---+---+-------+-------------------------------+
 * |T|L| Resrv | DV| RV|Rsv| Opcode|  Data Sink STag (32 bits)     |
 * +-+-+-------+---+---+---+-------+-------------------------------+
 * |  Data Sink Tagged Offset (64 bits)                            |
 * +---------------------------------------------------------------+
 * </pre>
 *
 * @param last L: last segment of the message
 * @param opcode {@link RdmapOpcode#RDMA_WRITE} or {@link RdmapOpcode#RDMA_READ_RESPONSE}
 * @param stag the data sink's STag
 * @param taggedOffset where in the sink this segment's payload goes
 */
public record TaggedHeader(boolean last, RdmapOpcode opcode, int stag, long taggedOffset) {

	/** Wire size. */
	public static final int LENGTH = 14;

	public TaggedHeader {
		Objects.requireNonNull(opcode, "opcode");
		if (!opcode.tagged()) {
			throw new IllegalArgumentException(opcode + " is not a tagged RDMAP message (RFC 5040 §4.3)");
		}
	}

	/**
	 * Writes the 14 header bytes at the buffer's position.
	 * @param out target
	 */
	public void encode(ByteBuffer out) {
		encode(out, this.last, this.opcode, this.stag, this.taggedOffset);
	}

	static void encode(ByteBuffer out, boolean last, RdmapOpcode opcode, int stag, long taggedOffset) {
		out.put((byte) DdpControl.ddpByte(true, last));
		out.put((byte) DdpControl.rdmapByte(opcode));
		Be.put32(out, stag);
		Be.put64(out, taggedOffset);
	}

	/**
	 * Reads and checks a tagged header.
	 * @param in source
	 * @param index index of the DDP control byte
	 * @return the header
	 * @throws DdpHeaderException on a DDP version other than 1
	 * @throws RdmapHeaderException on a bad RDMAP version or an opcode that is not tagged
	 */
	public static TaggedHeader decode(ByteBuffer in, int index) {
		int ddp = Be.u8(in, index);
		RdmapOpcode opcode = DdpControl.check(ddp, Be.u8(in, index + 1));
		return new TaggedHeader((ddp & DdpControl.LAST) != 0, opcode, Be.i32(in, index + 2), Be.i64(in, index + 6));
	}

}

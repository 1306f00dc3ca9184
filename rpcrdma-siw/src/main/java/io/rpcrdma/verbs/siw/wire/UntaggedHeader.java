package io.rpcrdma.verbs.siw.wire;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The header of an untagged DDP segment carrying RDMAP (RFC 5041 §5.3, RFC 5040 §4.3): used by
 * the Sends, RDMA Read Request and Terminate.
 *
 * <pre>
 * +-+-+-------+---+---+---+-------+-------------------------------+
 * |T|L| Resrv | DV| RV|Rsv| Opcode| RsvdULP[8:39]: Invalidate STag|
 * +-+-+-------+---+---+---+-------+-------------------------------+
 * | Queue Number (32)  | Message Sequence Number (32) | MO (32)   |
 * +---------------------------------------------------------------+
 * </pre>
 *
 * RsvdULP[8:39] carries the STag to invalidate for Send with Invalidate and Send with SE and
 * Invalidate (RFC 5040 §4.1) and is zero otherwise.
 *
 * @param last L: last segment of the message
 * @param opcode an untagged opcode
 * @param invalidateStag RsvdULP[8:39]
 * @param queueNumber QN; RDMAP uses {@link RdmapOpcode#queueNumber()}
 * @param msn message sequence number, per queue, starting at 1 (RFC 5041 §5.3)
 * @param messageOffset byte offset of this segment's payload in the message
 */
public record UntaggedHeader(boolean last, RdmapOpcode opcode, int invalidateStag, int queueNumber, int msn,
		int messageOffset) {

	/** Wire size. */
	public static final int LENGTH = 18;

	public UntaggedHeader {
		Objects.requireNonNull(opcode, "opcode");
		if (opcode.tagged()) {
			throw new IllegalArgumentException(opcode + " is not an untagged RDMAP message (RFC 5040 §4.3)");
		}
	}

	/**
	 * A header on the queue RDMAP assigns to the opcode.
	 * @param last L flag
	 * @param opcode untagged opcode
	 * @param invalidateStag STag to invalidate, or 0
	 * @param msn message sequence number
	 * @param messageOffset message offset
	 * @return the header
	 */
	public static UntaggedHeader of(boolean last, RdmapOpcode opcode, int invalidateStag, int msn, int messageOffset) {
		return new UntaggedHeader(last, opcode, invalidateStag, opcode.queueNumber(), msn, messageOffset);
	}

	/**
	 * Writes the 18 header bytes at the buffer's position.
	 * @param out target
	 */
	public void encode(ByteBuffer out) {
		encode(out, this.last, this.opcode, this.invalidateStag, this.queueNumber, this.msn, this.messageOffset);
	}

	static void encode(ByteBuffer out, boolean last, RdmapOpcode opcode, int invalidateStag, int queueNumber, int msn,
			int messageOffset) {
		out.put((byte) DdpControl.ddpByte(false, last));
		out.put((byte) DdpControl.rdmapByte(opcode));
		Be.put32(out, invalidateStag);
		Be.put32(out, queueNumber);
		Be.put32(out, msn);
		Be.put32(out, messageOffset);
	}

	/**
	 * Reads and checks an untagged header. Queue, MSN and MO are not judged here; that takes
	 * stream state (see {@link DdpReceiveValidator}).
	 * @param in source
	 * @param index index of the DDP control byte
	 * @return the header
	 * @throws DdpHeaderException on a DDP version other than 1
	 * @throws RdmapHeaderException on a bad RDMAP version or an opcode that is not untagged
	 */
	public static UntaggedHeader decode(ByteBuffer in, int index) {
		int ddp = Be.u8(in, index);
		RdmapOpcode opcode = DdpControl.check(ddp, Be.u8(in, index + 1));
		return new UntaggedHeader((ddp & DdpControl.LAST) != 0, opcode, Be.i32(in, index + 2), Be.i32(in, index + 6),
				Be.i32(in, index + 10), Be.i32(in, index + 14));
	}

}

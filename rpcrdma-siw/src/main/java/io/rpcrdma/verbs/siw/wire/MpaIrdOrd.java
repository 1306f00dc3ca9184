package io.rpcrdma.verbs.siw.wire;

import java.nio.ByteBuffer;

/**
 * The IRD/ORD words that open the private data of an enhanced (revision 2) MPA Request or
 * Reply, RFC 6581 §3 and §7.1:
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |a|b|          IRD (14 bits)    |c|d|          ORD (14 bits)    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * a asks for peer-to-peer mode, in which the initiator sends a ready-to-receive (RTR) frame
 * after the Reply; b, c and d offer (in a Request) or pick (in a Reply) that frame: a
 * zero-length Send, RDMA Write or RDMA Read respectively.
 * Linux siw uses the same layout (iwarp.h {@code struct mpa_v2_data}: {@code MPA_V2_PEER_TO_PEER}
 * and {@code MPA_V2_ZERO_LENGTH_RTR} in the IRD word, {@code MPA_V2_RDMA_WRITE_RTR} and
 * {@code MPA_V2_RDMA_READ_RTR} in the ORD word, values masked with 0x3fff).
 *
 * @param ird inbound RDMA Read queue depth, 0..16383
 * @param ord outbound RDMA Read queue depth, 0..16383
 * @param peerToPeer bit a: peer-to-peer mode
 * @param sendRtr bit b: zero-length Send as RTR
 * @param writeRtr bit c: zero-length RDMA Write as RTR
 * @param readRtr bit d: zero-length RDMA Read as RTR
 */
public record MpaIrdOrd(int ird, int ord, boolean peerToPeer, boolean sendRtr, boolean writeRtr, boolean readRtr) {

	/** Wire size: two 16-bit words. */
	public static final int LENGTH = 4;

	/** Largest IRD or ORD value (14 bits). */
	public static final int MAX_VALUE = 0x3FFF;

	private static final int FLAG_HIGH = 0x8000;

	private static final int FLAG_LOW = 0x4000;

	public MpaIrdOrd {
		if (ird < 0 || ird > MAX_VALUE || ord < 0 || ord > MAX_VALUE) {
			throw new IllegalArgumentException("IRD " + ird + " and ORD " + ord + " must be in [0, " + MAX_VALUE
					+ "] (14-bit fields, RFC 6581 §3)");
		}
	}

	/**
	 * IRD and ORD without peer-to-peer mode, the common client-server case.
	 * @param ird inbound RDMA Read queue depth
	 * @param ord outbound RDMA Read queue depth
	 * @return the parameters
	 */
	public static MpaIrdOrd of(int ird, int ord) {
		return new MpaIrdOrd(ird, ord, false, false, false, false);
	}

	void encode(ByteBuffer out) {
		Be.put16(out, this.ird | (this.peerToPeer ? FLAG_HIGH : 0) | (this.sendRtr ? FLAG_LOW : 0));
		Be.put16(out, this.ord | (this.writeRtr ? FLAG_HIGH : 0) | (this.readRtr ? FLAG_LOW : 0));
	}

	static MpaIrdOrd decode(ByteBuffer in, int index) {
		int irdWord = Be.u16(in, index);
		int ordWord = Be.u16(in, index + 2);
		return new MpaIrdOrd(irdWord & MAX_VALUE, ordWord & MAX_VALUE, (irdWord & FLAG_HIGH) != 0,
				(irdWord & FLAG_LOW) != 0, (ordWord & FLAG_HIGH) != 0, (ordWord & FLAG_LOW) != 0);
	}

}

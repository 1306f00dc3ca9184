package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import io.rpcrdma.oncrpc.VersionRange;
import io.rpcrdma.protocol.RpcRdmaConstants;
import io.rpcrdma.protocol.TransportHeaderDecoder;

/**
 * The transport header of the common small message, read and written in place without a
 * header record or an encoder: RDMA_MSG (RFC 8166 §4.1.2), or RDMA2_MSG in Version Two
 * (draft-cel-nfsv4-rpcrdma-version-two §4.2), with three empty chunk lists; seven words
 * (rdma_xid, rdma_vers, rdma_credit, rdma_proc and the three lists' terminators).
 */
final class ChunklessHeader {

	/** The header's length in bytes. */
	static final int LENGTH = RpcRdmaConstants.FIXED_HEADER_LENGTH + 12;

	private ChunklessHeader() {
	}

	/**
	 * Whether a received message is a chunk-less RDMA_MSG or RDMA2_MSG of a supported version
	 * followed by an RPC message whose XID matches rdma_xid (RFC 5666 §4.1). Read in place,
	 * without allocating; what this accepts {@link TransportHeaderDecoder} would decode to the
	 * same header, and everything else goes to it.
	 * @param received the message from offset 0
	 * @param length its length
	 * @param supported the versions this side speaks
	 * @return whether it is one
	 */
	static boolean matches(ByteBuffer received, int length, VersionRange supported) {
		if (length < LENGTH + RpcRdmaConstants.MIN_RPC_MESSAGE_LENGTH) {
			return false;
		}
		ByteBuffer in = received.order(ByteOrder.BIG_ENDIAN);
		int version = in.getInt(4);
		return in.getInt(12) == RpcRdmaConstants.RDMA_MSG && in.getInt(16) == 0 && in.getInt(20) == 0
				&& in.getInt(24) == 0 && in.getInt(LENGTH) == in.getInt(0)
				&& (version == RpcRdmaConstants.VERSION_1 || version == RpcRdmaConstants.VERSION_2)
				&& supported.contains(version);
	}

	/**
	 * Writes the header at offset 0: the bytes the encoder writes for
	 * {@code RdmaMsg(xid, credits, ChunkLists.EMPTY)} (or {@code Rdma2Msg}).
	 * @param out the SEND buffer, switched to big-endian
	 * @param xid rdma_xid
	 * @param version rdma_vers, 1 or 2
	 * @param credits rdma_credit
	 */
	static void write(ByteBuffer out, int xid, int version, int credits) {
		out.order(ByteOrder.BIG_ENDIAN)
			.putInt(0, xid)
			.putInt(4, version)
			.putInt(8, credits)
			.putInt(12, RpcRdmaConstants.RDMA_MSG)
			.putInt(16, 0)
			.putInt(20, 0)
			.putInt(24, 0);
	}

}

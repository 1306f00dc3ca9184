package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.List;

import io.rpcrdma.xdr.OpaquePadding;

/**
 * A reply as the transport delivers it to the requester's RPC layer.
 *
 * @param xid the reply's XID
 * @param version the RPC-over-RDMA version it arrived in
 * @param message the RPC reply (from the XID on) with any Read chunk data (RFC 5666 replies)
 * reinserted; owned by the receiver
 * @param writeChunks the data the responder placed in each offered Write chunk, in the order
 * offered, each trimmed to the length the responder returned (RFC 8166 §3.4.6); the reply's
 * XDR still holds the items' length words, and the RPC layer takes the data from here
 * @param padding the RFC 5666 §3.9 RDMA_MSGP padding the reply's decoder skips before large
 * opaque items, or {@code null} for an unpadded reply
 */
public record InboundReply(int xid, int version, ByteBuffer message, List<ByteBuffer> writeChunks,
		OpaquePadding padding) {

	/**
	 * Copies the list.
	 */
	public InboundReply {
		writeChunks = List.copyOf(writeChunks);
	}

	/**
	 * An unpadded reply.
	 * @param xid the reply's XID
	 * @param version the RPC-over-RDMA version it arrived in
	 * @param message the RPC reply
	 * @param writeChunks the data placed in each offered Write chunk
	 */
	public InboundReply(int xid, int version, ByteBuffer message, List<ByteBuffer> writeChunks) {
		this(xid, version, message, writeChunks, null);
	}

}

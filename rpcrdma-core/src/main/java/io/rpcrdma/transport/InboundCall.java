package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.List;

import io.rpcrdma.protocol.TraceContext;
import io.rpcrdma.xdr.OpaquePadding;
import io.rpcrdma.xdr.XdrDecoder;

/**
 * A call as the transport delivers it to the responder's RPC layer.
 *
 * @param xid the call's XID
 * @param version the RPC-over-RDMA version it arrived in; the reply goes back in the same
 * @param message the whole RPC call from its XID on, with every Read chunk reinserted at its
 * position (RFC 8166 §3.4.4, with XDR roundup restored). A call that came with Read chunks is
 * placed in one registered buffer when it fits (the chunks RDMA-Read straight to their
 * positions, so opaque views of it are registered memory, no copy): the message is then
 * valid only until the call's {@link ReplySender#reply} or {@link ReplySender#drop()}, after
 * which the buffer goes back to the pool. A call that came without chunks is in a heap buffer
 * the transport reuses for a later call once the RPC layer has answered it and called
 * {@link ReplySender#release()} (never before; an RPC layer that does not release keeps it).
 * Other calls are in heap memory the receiver owns.
 * @param writeChunkCapacities the capacity of each Write chunk the requester offered, for
 * DDP-eligible results, in order
 * @param replyChunkCapacity the capacity of the requester's Reply chunk, 0 if none
 * @param padding the RFC 5666 §3.9 padding of an RDMA_MSGP call, which the RPC layer's XDR
 * decoder must skip ({@link #decoder()} does), or {@code null}
 * @param readChunks how many Read chunks carried the call (RFC 8166 §3.4.5, a Position-Zero
 * chunk included); 0 for a call that arrived inline
 * @param traceContext the requester's trace context, if the call came as the
 * {@link io.rpcrdma.protocol.TraceContextOption} optional feature; else {@code null}
 */
public record InboundCall(int xid, int version, ByteBuffer message, List<Long> writeChunkCapacities,
		long replyChunkCapacity, OpaquePadding padding, int readChunks, TraceContext traceContext) {

	/**
	 * A call without a trace context.
	 * @param xid the call's XID
	 * @param version the RPC-over-RDMA version it arrived in
	 * @param message the whole RPC call
	 * @param writeChunkCapacities the capacity of each Write chunk offered
	 * @param replyChunkCapacity the capacity of the Reply chunk, 0 if none
	 * @param padding RDMA_MSGP padding, or {@code null}
	 * @param readChunks how many Read chunks carried the call
	 */
	public InboundCall(int xid, int version, ByteBuffer message, List<Long> writeChunkCapacities,
			long replyChunkCapacity, OpaquePadding padding, int readChunks) {
		this(xid, version, message, writeChunkCapacities, replyChunkCapacity, padding, readChunks, null);
	}

	/**
	 * A call that arrived without Read chunks.
	 * @param xid the call's XID
	 * @param version the RPC-over-RDMA version it arrived in
	 * @param message the whole RPC call
	 * @param writeChunkCapacities the capacity of each Write chunk offered
	 * @param replyChunkCapacity the capacity of the Reply chunk, 0 if none
	 * @param padding RDMA_MSGP padding, or {@code null}
	 */
	public InboundCall(int xid, int version, ByteBuffer message, List<Long> writeChunkCapacities,
			long replyChunkCapacity, OpaquePadding padding) {
		this(xid, version, message, writeChunkCapacities, replyChunkCapacity, padding, 0);
	}

	/**
	 * Copies the list.
	 */
	public InboundCall {
		writeChunkCapacities = List.copyOf(writeChunkCapacities);
	}

	/**
	 * A call without RDMA_MSGP padding.
	 * @param xid the XID
	 * @param version the RPC-over-RDMA version
	 * @param message the RPC call
	 * @param writeChunkCapacities the Write chunks offered
	 * @param replyChunkCapacity the Reply chunk offered, 0 if none
	 */
	public InboundCall(int xid, int version, ByteBuffer message, List<Long> writeChunkCapacities,
			long replyChunkCapacity) {
		this(xid, version, message, writeChunkCapacities, replyChunkCapacity, null);
	}

	/** @return a decoder over the message from its XID on, skipping RDMA_MSGP padding if any */
	public XdrDecoder decoder() {
		return new XdrDecoder(this.message.duplicate()).withOpaquePadding(this.padding);
	}

}

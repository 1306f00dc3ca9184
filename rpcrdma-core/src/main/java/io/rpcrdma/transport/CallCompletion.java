package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.List;

import io.rpcrdma.xdr.OpaquePadding;

/**
 * How one call ends, told by {@link RpcTransport#call(OutboundCall, CallCompletion)}: exactly
 * one of {@link #replied} or {@link #failed}, once. It runs on the transport's receive thread
 * (or on the calling thread for a call that could not be sent) and must not block.
 * <p>
 * This is the call path without a future per call: a completion that offers its own
 * {@link #replyBuffer} lets an inline reply arrive without any new memory.
 */
public interface CallCompletion {

	/**
	 * Offers room for the reply's RPC message, called on the receive thread just before
	 * {@link #replied}, at most once per call.
	 * @param length the RPC message's length in bytes
	 * @return a heap buffer cleared to at least {@code length} bytes of room, which the
	 * transport fills from position 0 and hands back to {@link #replied}; or {@code null} for the
	 * transport to allocate one
	 */
	default ByteBuffer replyBuffer(int length) {
		return null;
	}

	/**
	 * The reply arrived.
	 * @param version the RPC-over-RDMA version it came in
	 * @param message the RPC reply message from its position to its limit: the buffer
	 * {@link #replyBuffer} offered, or one the transport allocated; the completion owns it
	 * @param writeChunks the data the responder placed in each offered Write chunk (RFC 8166
	 * §3.4.6), owned by the completion; empty for none
	 * @param padding the RFC 5666 §3.9 RDMA_MSGP padding the results' decoder skips, or
	 * {@code null}
	 */
	void replied(int version, ByteBuffer message, List<ByteBuffer> writeChunks, OpaquePadding padding);

	/**
	 * The reply arrived with the data of its Write chunks still in the transport's registered
	 * buffers, where the responder placed it (RFC 8166 §3.4.6): {@code writeChunks} are
	 * read-only views of that memory, valid until {@code releaseChunks} runs, which the
	 * completion must run exactly once, when it no longer reads them. Bulk results are then
	 * copied once, by whoever decodes them, instead of twice. This default copies the data
	 * out, releases the buffers at once and calls {@link #replied(int, ByteBuffer, List, OpaquePadding)}.
	 * @param version the RPC-over-RDMA version it came in
	 * @param message the RPC reply message from its position to its limit, owned by the
	 * completion
	 * @param writeChunks views of the data placed in each offered Write chunk, in order
	 * @param padding the RFC 5666 §3.9 RDMA_MSGP padding the results' decoder skips, or
	 * {@code null}
	 * @param releaseChunks gives the Write chunk buffers back to the transport
	 */
	default void replied(int version, ByteBuffer message, List<ByteBuffer> writeChunks, OpaquePadding padding,
			Runnable releaseChunks) {
		List<ByteBuffer> copies = new java.util.ArrayList<>(writeChunks.size());
		try {
			for (ByteBuffer chunk : writeChunks) {
				ByteBuffer copy = ByteBuffer.allocate(chunk.remaining());
				copy.put(chunk.duplicate()).flip();
				copies.add(copy);
			}
		}
		finally {
			releaseChunks.run();
		}
		replied(version, message, copies, padding);
	}

	/**
	 * The call failed, with one of the exceptions {@link RpcTransport#call(OutboundCall)} names.
	 * @param failure why
	 */
	void failed(Throwable failure);

}

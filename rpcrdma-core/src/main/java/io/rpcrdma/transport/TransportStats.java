package io.rpcrdma.transport;

/**
 * What one connection conveyed, and how, since it was created: for metrics and for tests
 * that must see which conveyance was chosen.
 *
 * @param inlineMessages RDMA_MSG sent with the whole RPC message inline
 * @param readChunksSent Read chunks advertised (Position-Zero ones included)
 * @param positionZeroChunksSent Position-Zero Read chunks advertised (long calls, RFC 5666 §5.1)
 * @param readChunksPulled Read chunks pulled from the peer with RDMA Read
 * @param writeChunksFilled Write chunks this side filled with RDMA Write
 * @param replyChunksFilled Reply chunks this side filled (long replies, RFC 5666 §5.2)
 * @param rdmaErrorsSent RDMA_ERROR messages sent
 * @param rdmaErrorsReceived RDMA_ERROR messages received
 * @param doneSent RDMA_DONE messages sent
 * @param doneReceived RDMA_DONE messages received
 * @param invalidatedByPeer messages that arrived as Send With Invalidate, retiring one of
 * this side's chunk STags remotely (RFC 8797 §4.1 "I" flag)
 * @param readsQueued RDMA Reads that had to wait because the connection's ORD was reached
 * @param readsInFlightHighWater the most RDMA Reads this side ever had outstanding at once on
 * the connection; never above its ORD ({@link TransportConfig#maxOutstandingReads()}, lowered
 * to the peer's IRD when CCP told it)
 */
public record TransportStats(long inlineMessages, long readChunksSent, long positionZeroChunksSent,
		long readChunksPulled, long writeChunksFilled, long replyChunksFilled, long rdmaErrorsSent,
		long rdmaErrorsReceived, long doneSent, long doneReceived, long invalidatedByPeer, long readsQueued,
		int readsInFlightHighWater) {

	/** Nothing conveyed yet. */
	public static final TransportStats NONE = new TransportStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

}

package io.rpcrdma.transport;

import java.util.Objects;

/**
 * What one connection (or, summed, a server or client pool) conveyed, and how, since it was
 * created: for metrics and for tests that must see which conveyance was chosen.
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
 * @param bytesSent bytes this side posted as Sends (transport headers included)
 * @param bytesRead bytes this side pulled from the peer with RDMA Read
 * @param bytesWritten bytes this side pushed into the peer's chunks with RDMA Write
 * @param rdmaErrorsSentByCode the RDMA_ERROR messages sent, by error code
 * @param rdmaErrorsReceivedByCode the RDMA_ERROR messages received, by error code
 * @param operationTimeouts connections failed because the peer left this side's work (an RDMA
 * Read above all) unanswered for {@link PeerLimits#operationTimeout()}
 * @param bulkShareWaits calls whose Read chunks waited because their connection held its
 * {@link PeerLimits#bulkShare()} of bulk memory
 * @param sendQueueWaits work requests (Sends, RDMA Reads, RDMA Writes) that waited for room on
 * their connection's send queue instead of being posted at once ({@link SendQueueBudget}): a
 * reply with more Write chunk segments than the queue had room for, or bursts beyond the
 * credits
 * @param sendQueueWaitingHighWater the most work requests ever waiting for send-queue room at
 * once on the connection
 */
public record TransportStats(long inlineMessages, long readChunksSent, long positionZeroChunksSent,
		long readChunksPulled, long writeChunksFilled, long replyChunksFilled, long rdmaErrorsSent,
		long rdmaErrorsReceived, long doneSent, long doneReceived, long invalidatedByPeer, long readsQueued,
		int readsInFlightHighWater, long bytesSent, long bytesRead, long bytesWritten,
		RdmaErrorCounts rdmaErrorsSentByCode, RdmaErrorCounts rdmaErrorsReceivedByCode, long operationTimeouts,
		long bulkShareWaits, long sendQueueWaits, int sendQueueWaitingHighWater) {

	/** Requires the per-code counts. */
	public TransportStats {
		Objects.requireNonNull(rdmaErrorsSentByCode, "rdmaErrorsSentByCode");
		Objects.requireNonNull(rdmaErrorsReceivedByCode, "rdmaErrorsReceivedByCode");
	}

	/** Nothing conveyed. */
	public static final TransportStats ZERO = new TransportStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			RdmaErrorCounts.ZERO, RdmaErrorCounts.ZERO, 0, 0, 0, 0);

	/**
	 * Adds two snapshots, to total connections; the high-water marks are the larger of the two.
	 * @param other another snapshot
	 * @return the sum, counter by counter
	 */
	public TransportStats plus(TransportStats other) {
		return new TransportStats(this.inlineMessages + other.inlineMessages, this.readChunksSent + other.readChunksSent,
				this.positionZeroChunksSent + other.positionZeroChunksSent,
				this.readChunksPulled + other.readChunksPulled, this.writeChunksFilled + other.writeChunksFilled,
				this.replyChunksFilled + other.replyChunksFilled, this.rdmaErrorsSent + other.rdmaErrorsSent,
				this.rdmaErrorsReceived + other.rdmaErrorsReceived, this.doneSent + other.doneSent,
				this.doneReceived + other.doneReceived, this.invalidatedByPeer + other.invalidatedByPeer,
				this.readsQueued + other.readsQueued,
				Math.max(this.readsInFlightHighWater, other.readsInFlightHighWater), this.bytesSent + other.bytesSent,
				this.bytesRead + other.bytesRead, this.bytesWritten + other.bytesWritten,
				this.rdmaErrorsSentByCode.plus(other.rdmaErrorsSentByCode),
				this.rdmaErrorsReceivedByCode.plus(other.rdmaErrorsReceivedByCode),
				this.operationTimeouts + other.operationTimeouts, this.bulkShareWaits + other.bulkShareWaits,
				this.sendQueueWaits + other.sendQueueWaits,
				Math.max(this.sendQueueWaitingHighWater, other.sendQueueWaitingHighWater));
	}

}

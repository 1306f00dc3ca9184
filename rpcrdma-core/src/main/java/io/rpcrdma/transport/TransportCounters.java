package io.rpcrdma.transport;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import io.rpcrdma.protocol.ChunkedHeader;
import io.rpcrdma.protocol.RdmaDone;
import io.rpcrdma.protocol.RdmaErrorHeader;
import io.rpcrdma.protocol.TransportHeader;

/** The live counters behind {@link TransportStats}. */
final class TransportCounters {

	final LongAdder inlineMessages = new LongAdder();

	final LongAdder readChunksSent = new LongAdder();

	final LongAdder positionZeroChunksSent = new LongAdder();

	final LongAdder readChunksPulled = new LongAdder();

	final LongAdder writeChunksFilled = new LongAdder();

	final LongAdder replyChunksFilled = new LongAdder();

	final LongAdder rdmaErrorsSent = new LongAdder();

	final LongAdder rdmaErrorsReceived = new LongAdder();

	final LongAdder doneSent = new LongAdder();

	final LongAdder doneReceived = new LongAdder();

	final LongAdder invalidatedByPeer = new LongAdder();

	final LongAdder readsQueued = new LongAdder();

	final LongAdder operationTimeouts = new LongAdder();

	final LongAdder bulkShareWaits = new LongAdder();

	private final AtomicInteger readsInFlightHighWater = new AtomicInteger();

	void recordReadsInFlight(int inFlight) {
		this.readsInFlightHighWater.accumulateAndGet(inFlight, Math::max);
	}

	final LongAdder bytesSent = new LongAdder();

	final LongAdder bytesRead = new LongAdder();

	final LongAdder bytesWritten = new LongAdder();

	private final LongAdder[] errorsSentByCode = adders(4);

	private final LongAdder[] errorsReceivedByCode = adders(4);

	void errorSent(RdmaErrorHeader error) {
		this.rdmaErrorsSent.increment();
		this.errorsSentByCode[RdmaErrorCounts.index(error)].increment();
	}

	void errorReceived(RdmaErrorHeader error) {
		this.rdmaErrorsReceived.increment();
		this.errorsReceivedByCode[RdmaErrorCounts.index(error)].increment();
	}

	private static LongAdder[] adders(int count) {
		LongAdder[] adders = new LongAdder[count];
		for (int i = 0; i < count; i++) {
			adders[i] = new LongAdder();
		}
		return adders;
	}

	TransportStats snapshot() {
		return snapshot(0, 0);
	}

	/**
	 * @param sendQueue the connection's send-queue room, whose waits are counted there
	 * @return the counters with the connection's send-queue figures
	 */
	TransportStats snapshot(SendQueueBudget sendQueue) {
		return snapshot(sendQueue.queued(), sendQueue.waitingHighWater());
	}

	/**
	 * @param sendQueueWaits work requests that waited for send-queue room ({@link SendQueueBudget#queued()})
	 * @param sendQueueWaitingHighWater the most that ever waited at once
	 * @return the counters with the connection's send-queue figures
	 */
	private TransportStats snapshot(long sendQueueWaits, int sendQueueWaitingHighWater) {
		return new TransportStats(this.inlineMessages.sum(), this.readChunksSent.sum(),
				this.positionZeroChunksSent.sum(), this.readChunksPulled.sum(), this.writeChunksFilled.sum(),
				this.replyChunksFilled.sum(), this.rdmaErrorsSent.sum(), this.rdmaErrorsReceived.sum(),
				this.doneSent.sum(), this.doneReceived.sum(), this.invalidatedByPeer.sum(),
				this.readsQueued.sum(), this.readsInFlightHighWater.get(), this.bytesSent.sum(), this.bytesRead.sum(),
				this.bytesWritten.sum(), RdmaErrorCounts.sum(this.errorsSentByCode),
				RdmaErrorCounts.sum(this.errorsReceivedByCode), this.operationTimeouts.sum(), this.bulkShareWaits.sum(),
				sendQueueWaits, sendQueueWaitingHighWater);
	}


	/** Counts a message sent, by its header: errors, RDMA_DONE, inline messages and chunks. */
	void sent(TransportHeader header, int payloadLength) {
		if (header instanceof RdmaErrorHeader error) {
			errorSent(error);
		}
		else if (header instanceof RdmaDone) {
			this.doneSent.increment();
		}
		else if (header instanceof ChunkedHeader chunked) {
			if (payloadLength > 0) {
				this.inlineMessages.increment();
			}
			this.readChunksSent.add(chunked.chunkLists().readChunks().size());
			if (chunked.chunkLists().hasPositionZeroReadChunk()) {
				this.positionZeroChunksSent.increment();
			}
		}
	}

}

package io.rpcrdma.verbs.siw;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.rpcrdma.verbs.CompletionOpcode;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.QueuePairState;
import io.rpcrdma.verbs.QueuePairStateException;
import io.rpcrdma.verbs.ReceiveWorkRequest;
import io.rpcrdma.verbs.RnrPolicy;
import io.rpcrdma.verbs.SendOpcode;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.soft.MemoryRegionTable;
import io.rpcrdma.verbs.soft.SoftwareCompletionQueue;
import io.rpcrdma.verbs.soft.SoftwareProtectionDomain;
import io.rpcrdma.verbs.support.PostingChecks;

/**
 * An iWARP queue pair (RFC 5040 §5): a send queue executed in posting order by the
 * connection's {@link RdmapTransmitter} and a receive queue consumed by its
 * {@link RdmapReceiver}.
 * <p>
 * Work requests on the send queue complete in order. iWARP has no acknowledgement of its
 * own, so, as on Linux's siw, a Send or RDMA Write completes once the socket has taken it
 * (the transmitter says so), and an RDMA Read once its Response has placed all its data. A
 * Terminate from the peer (RFC 5040 §4.8) fails the oldest outstanding work request with the
 * status its error means, and everything else is flushed.
 * <p>
 * Rings of the caller's immutable work requests, so posting allocates nothing. One lock
 * guards the rings and orders completions; completion handlers run after it is released, on
 * the thread that produced the completions.
 */
final class SiwQueuePair implements QueuePair {

	private final SiwProvider provider;

	private final QueuePairAttributes attributes;

	private final SoftwareProtectionDomain pd;

	private final MemoryRegionTable table;

	private final SoftwareCompletionQueue sendCq;

	private final SoftwareCompletionQueue recvCq;

	private final int qpn;

	private final RnrPolicy rnrPolicy;

	private final PostingChecks checks;

	private final ReentrantLock lock = new ReentrantLock();

	/**
	 * Held by the receive path while it copies bytes into a posted receive or an RDMA Read
	 * sink, and by a flush before it hands those buffers back: bytes are never placed into
	 * memory whose work request was already flushed, which its owner may have given to
	 * someone else (RFC 5040 §5: data is placed only into a buffer the stream still owns).
	 */
	private final Object placementLock = new Object();

	private final Condition receivePosted = this.lock.newCondition();

	private volatile QueuePairState state = QueuePairState.INIT;

	private String errorDetail;

	private final SendWorkRequest[] sendQueue;

	private final CompletionStatus[] sendStatus;

	private final String[] sendDetail;

	private final boolean[] readDone;

	// Sequence numbers of send work requests: head (oldest not completed), tail (next to
	// post), transmitNext (next to transmit) and ackedBelow (non-Read requests below it
	// were processed by the peer).
	private long sendHead;

	private long sendTail;

	private long transmitNext;

	private long ackedBelow;

	private final ReceiveWorkRequest[] receiveQueue;

	private int receiveHead;

	private int receiveCount;

	private ReceiveWorkRequest receiving;

	private volatile SiwConnection connection;

	SiwQueuePair(SiwProvider provider, QueuePairAttributes attributes, int qpn) {
		this.provider = provider;
		this.attributes = attributes;
		this.pd = (SoftwareProtectionDomain) attributes.protectionDomain();
		this.table = this.pd.table();
		this.sendCq = (SoftwareCompletionQueue) attributes.sendCompletionQueue();
		this.recvCq = (SoftwareCompletionQueue) attributes.receiveCompletionQueue();
		this.qpn = qpn;
		this.rnrPolicy = attributes.rnrPolicy();
		this.checks = new PostingChecks(qpn, attributes);
		int depth = attributes.maxSendWorkRequests();
		this.sendQueue = new SendWorkRequest[depth];
		this.sendStatus = new CompletionStatus[depth];
		this.sendDetail = new String[depth];
		this.readDone = new boolean[depth];
		this.receiveQueue = new ReceiveWorkRequest[attributes.maxReceiveWorkRequests()];
	}

	@Override
	public int queuePairNumber() {
		return this.qpn;
	}

	@Override
	public QueuePairAttributes attributes() {
		return this.attributes;
	}

	@Override
	public QueuePairState state() {
		return this.state;
	}

	@Override
	public void postSend(SendWorkRequest workRequest) {
		this.checks.checkSendSges(workRequest);
		this.checks.checkSendable(this.state);
		QueuePairState current;
		this.lock.lock();
		try {
			current = this.state;
			if (current == QueuePairState.CLOSED) {
				throw this.checks.closed();
			}
			if (this.sendTail - this.sendHead == this.sendQueue.length) {
				throw this.checks.sendQueueFull(this.sendQueue.length);
			}
			int slot = slot(this.sendTail);
			this.sendQueue[slot] = workRequest;
			this.sendStatus[slot] = null;
			this.sendDetail[slot] = null;
			this.readDone[slot] = false;
			this.sendTail++;
			if (current == QueuePairState.ERROR) {
				flushLocked();
				return;
			}
		}
		finally {
			this.lock.unlock();
			notifyCompletionQueues();
		}
		SiwConnection c = this.connection;
		if (c != null) {
			c.posted();
			c.transmitter().kick();
		}
	}

	@Override
	public void postRecv(ReceiveWorkRequest workRequest) {
		this.checks.checkReceiveSges(workRequest);
		this.lock.lock();
		try {
			if (this.state == QueuePairState.CLOSED) {
				throw this.checks.closed();
			}
			if (this.receiveCount == this.receiveQueue.length) {
				throw this.checks.receiveQueueFull(this.receiveQueue.length);
			}
			int slot = this.receiveHead + this.receiveCount;
			if (slot >= this.receiveQueue.length) {
				slot -= this.receiveQueue.length;
			}
			this.receiveQueue[slot] = workRequest;
			this.receiveCount++;
			if (this.state == QueuePairState.ERROR) {
				flushLocked();
			}
			else {
				this.receivePosted.signalAll();
			}
		}
		finally {
			this.lock.unlock();
			notifyCompletionQueues();
		}
		SiwConnection c = this.connection;
		if (c != null) {
			c.receivePosted();
		}
	}

	@Override
	public void close() {
		if (this.state == QueuePairState.CLOSED) {
			return;
		}
		SiwConnection current = this.connection;
		if (current != null) {
			current.disconnect();
		}
		enterError("queue pair " + this.qpn + " closed", null, null);
		this.lock.lock();
		try {
			flushLocked();
			this.state = QueuePairState.CLOSED;
		}
		finally {
			this.lock.unlock();
			notifyCompletionQueues();
		}
		this.provider.queuePairClosed(this);
	}

	// ---- for the transmitter --------------------------------------------------------

	/**
	 * @return the next work request to transmit, or {@code null} if none or not connected
	 */
	SendWorkRequest nextToTransmit() {
		this.lock.lock();
		try {
			if (this.state != QueuePairState.RTS || this.transmitNext == this.sendTail) {
				return null;
			}
			return this.sendQueue[slot(this.transmitNext)];
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Marks the work request returned by {@link #nextToTransmit()} transmitted.
	 * @return its sequence number
	 */
	long transmitted() {
		this.lock.lock();
		try {
			if (this.transmitNext == this.sendTail) {
				// Flushed since nextToTransmit (enterError: the peer's Terminate, read by the I/O
				// thread while this one framed the request): the request has completed with
				// the rest and transmitNext is at the tail already. Moving it past the tail
				// would have the next acknowledge complete an empty slot.
				return this.transmitNext;
			}
			return this.transmitNext++;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Marks the next work request failed before it was transmitted (a local error); it
	 * completes with the status when the queue pair flushes.
	 */
	void transmitFailed(CompletionStatus status, String detail) {
		this.lock.lock();
		try {
			int slot = slot(this.transmitNext++);
			this.sendStatus[slot] = status;
			this.sendDetail[slot] = detail;
		}
		finally {
			this.lock.unlock();
		}
	}

	/** @return the send work requests posted and not completed */
	long outstanding() {
		this.lock.lock();
		try {
			return this.sendTail - this.sendHead;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * The socket has taken every non-Read request below the sequence number: they complete.
	 */
	void acknowledge(long below) {
		this.lock.lock();
		try {
			if (below > this.ackedBelow) {
				this.ackedBelow = below;
			}
			drainLocked();
		}
		finally {
			this.lock.unlock();
			notifyCompletionQueues();
		}
	}

	/**
	 * The lock the receive path places untagged data and Read Responses under
	 * ({@link #placementLock}); with it held, {@link #state()} {@code == RTS} means the buffers of
	 * the receive and Read in progress are still this queue pair's.
	 * @return the lock
	 */
	Object placementLock() {
		return this.placementLock;
	}

	/** The RDMA Read with this sequence number has all its data. */
	void readCompleted(long seq) {
		this.lock.lock();
		try {
			this.readDone[slot(seq)] = true;
			if (seq > this.ackedBelow) {
				this.ackedBelow = seq;
			}
			drainLocked();
		}
		finally {
			this.lock.unlock();
			notifyCompletionQueues();
		}
	}

	private void drainLocked() {
		while (this.sendHead < this.transmitNext) {
			int slot = slot(this.sendHead);
			if (this.sendStatus[slot] != null) {
				return;
			}
			SendWorkRequest wr = this.sendQueue[slot];
			boolean done = (wr.opcode() == SendOpcode.RDMA_READ) ? this.readDone[slot] : this.sendHead < this.ackedBelow;
			if (!done) {
				return;
			}
			completeHead(CompletionStatus.SUCCESS, null);
		}
	}

	private void completeHead(CompletionStatus status, String detail) {
		int slot = slot(this.sendHead);
		SendWorkRequest wr = this.sendQueue[slot];
		this.sendQueue[slot] = null;
		this.sendStatus[slot] = null;
		this.sendDetail[slot] = null;
		this.sendHead++;
		if (status != CompletionStatus.SUCCESS || wr.signaled()) {
			this.sendCq.complete(wr.wrId(), CompletionOpcode.of(wr.opcode()), status,
					(status == CompletionStatus.SUCCESS) ? (int) wr.totalLength() : 0, this.qpn, false, 0, detail);
		}
	}

	// ---- for the receiver -----------------------------------------------------------

	/**
	 * Takes the oldest posted receive for an arriving Send, waiting up to the given time for
	 * one to be posted (iWARP has no receiver-not-ready; this wait stands in for the
	 * sender's RNR retries).
	 * @param waitNanos the most time to wait, {@link Long#MAX_VALUE} for no limit
	 * @return the receive, or {@code null} if none came or the queue pair left RTS
	 */
	ReceiveWorkRequest takeReceive(long waitNanos) {
		boolean forever = waitNanos == Long.MAX_VALUE;
		long deadline = System.nanoTime() + (forever ? 0 : waitNanos);
		this.lock.lock();
		try {
			while (true) {
				if (this.state != QueuePairState.RTS) {
					return null;
				}
				if (this.receiveCount > 0) {
					ReceiveWorkRequest wr = this.receiveQueue[this.receiveHead];
					this.receiveQueue[this.receiveHead] = null;
					this.receiveHead = (this.receiveHead + 1 == this.receiveQueue.length) ? 0 : this.receiveHead + 1;
					this.receiveCount--;
					this.receiving = wr;
					return wr;
				}
				long left = forever ? TimeUnit.SECONDS.toNanos(1) : deadline - System.nanoTime();
				if (left <= 0) {
					return null;
				}
				this.receivePosted.awaitNanos(left);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Completes the receive taken by {@link #takeReceive(long)}, unless a flush already did.
	 */
	void completeReceive(ReceiveWorkRequest wr, CompletionStatus status, int length, boolean withInvalidate,
			int invalidatedStag, String detail) {
		this.lock.lock();
		try {
			if (this.receiving != wr) {
				return;
			}
			this.receiving = null;
			this.recvCq.complete(wr.wrId(), CompletionOpcode.RECV, status, length, this.qpn, withInvalidate,
					invalidatedStag, detail);
		}
		finally {
			this.lock.unlock();
			notifyCompletionQueues();
		}
	}

	// ---- state ----------------------------------------------------------------------

	/**
	 * Moves to the error state and flushes: work the peer acknowledged completes first, then
	 * the oldest outstanding request gets the given status (if any), then everything else is
	 * flushed.
	 * @param detail why
	 * @param oldestStatus status for the oldest transmitted, unacknowledged request, or
	 * {@code null}
	 * @param oldestDetail its detail
	 */
	void enterError(String detail, CompletionStatus oldestStatus, String oldestDetail) {
		this.lock.lock();
		try {
			if (this.state == QueuePairState.INIT || this.state == QueuePairState.RTS) {
				drainLocked();
				if (oldestStatus != null && this.sendHead < this.transmitNext
						&& this.sendStatus[slot(this.sendHead)] == null) {
					this.sendStatus[slot(this.sendHead)] = oldestStatus;
					this.sendDetail[slot(this.sendHead)] = oldestDetail;
				}
				this.errorDetail = detail;
				this.state = QueuePairState.ERROR;
			}
			if (this.state == QueuePairState.ERROR) {
				synchronized (this.placementLock) {
					flushLocked();
				}
			}
			this.receivePosted.signalAll();
		}
		finally {
			this.lock.unlock();
			notifyCompletionQueues();
		}
	}

	private void flushLocked() {
		String detail = "flushed: " + this.errorDetail;
		while (this.sendHead < this.sendTail) {
			int slot = slot(this.sendHead);
			CompletionStatus status = this.sendStatus[slot];
			if (status != null) {
				completeHead(status, this.sendDetail[slot]);
			}
			else {
				completeHead(CompletionStatus.WR_FLUSH_ERR, detail);
			}
		}
		this.transmitNext = this.sendTail;
		if (this.receiving != null) {
			ReceiveWorkRequest wr = this.receiving;
			this.receiving = null;
			this.recvCq.complete(wr.wrId(), CompletionOpcode.RECV, CompletionStatus.WR_FLUSH_ERR, 0, this.qpn, false,
					0, detail);
		}
		while (this.receiveCount > 0) {
			ReceiveWorkRequest wr = this.receiveQueue[this.receiveHead];
			this.receiveQueue[this.receiveHead] = null;
			this.receiveHead = (this.receiveHead + 1 == this.receiveQueue.length) ? 0 : this.receiveHead + 1;
			this.receiveCount--;
			this.recvCq.complete(wr.wrId(), CompletionOpcode.RECV, CompletionStatus.WR_FLUSH_ERR, 0, this.qpn, false,
					0, detail);
		}
	}

	void enterReadyToSend() {
		this.lock.lock();
		try {
			if (this.state != QueuePairState.INIT) {
				throw new QueuePairStateException(
						"Queue pair " + this.qpn + " is " + this.state + ", not INIT; a queue pair connects only once");
			}
			this.state = QueuePairState.RTS;
		}
		finally {
			this.lock.unlock();
		}
	}

	boolean attach(SiwConnection value) {
		this.lock.lock();
		try {
			if (this.connection != null || this.state != QueuePairState.INIT) {
				return false;
			}
			this.connection = value;
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	private void notifyCompletionQueues() {
		this.sendCq.notifyIfArmed();
		if (this.recvCq != this.sendCq) {
			this.recvCq.notifyIfArmed();
		}
	}

	private int slot(long seq) {
		return (int) (seq % this.sendQueue.length);
	}

	SoftwareProtectionDomain pd() {
		return this.pd;
	}

	MemoryRegionTable table() {
		return this.table;
	}

	RnrPolicy rnrPolicy() {
		return this.rnrPolicy;
	}

	SiwConnection connection() {
		return this.connection;
	}

	SiwProvider provider() {
		return this.provider;
	}

	@Override
	public String toString() {
		return "SiwQueuePair[qpn=" + this.qpn + ", state=" + this.state + "]";
	}

}

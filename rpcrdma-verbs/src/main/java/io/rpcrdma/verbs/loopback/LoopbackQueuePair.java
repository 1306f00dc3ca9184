package io.rpcrdma.verbs.loopback;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.CompletionOpcode;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.QueuePairState;
import io.rpcrdma.verbs.QueuePairStateException;
import io.rpcrdma.verbs.ReceiveWorkRequest;
import io.rpcrdma.verbs.RemoteAccessException;
import io.rpcrdma.verbs.RnrPolicy;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendOpcode;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.soft.DataPlacement;
import io.rpcrdma.verbs.soft.MemoryRegionTable;
import io.rpcrdma.verbs.soft.SoftwareCompletionQueue;
import io.rpcrdma.verbs.soft.SoftwareMemoryRegion;
import io.rpcrdma.verbs.soft.SoftwareProtectionDomain;
import io.rpcrdma.verbs.support.PostingChecks;

/**
 * A loopback queue pair. The send queue and the receive queue are fixed rings of the
 * caller's (immutable) work requests, so posting allocates nothing. The device's
 * {@link LoopbackEngine} executes the send queue in order; the receive queue is consumed
 * by the peer's engine when a Send arrives.
 * <p>
 * Semantics follow RFC 5666 §2 and verbs: a Send needs a pre-posted receive
 * (receiver-not-ready otherwise, retried per {@link RnrPolicy}); a receive that is too
 * small is a local length error at the receiver; RDMA Write and Read complete at the
 * initiator only; every tagged access is checked against the peer's
 * {@link MemoryRegionTable} before one byte moves; and any such error fails the connection,
 * putting both queue pairs in error, where all work is flushed.
 */
final class LoopbackQueuePair implements QueuePair {

	private final LoopbackProvider provider;

	private final LoopbackEngine engine;

	private final QueuePairAttributes attributes;

	private final SoftwareProtectionDomain pd;

	private final MemoryRegionTable table;

	private final SoftwareCompletionQueue sendCq;

	private final SoftwareCompletionQueue recvCq;

	private final int qpn;

	private final RnrPolicy rnrPolicy;

	private final PostingChecks checks;

	private final AtomicBoolean scheduled = new AtomicBoolean();

	private final Object stateLock = new Object();

	private volatile QueuePairState state = QueuePairState.INIT;

	private volatile String errorDetail;

	private final SendWorkRequest[] sendQueue;

	private int sendHead;

	private int sendCount;

	private final ReceiveWorkRequest[] receiveQueue;

	private int receiveHead;

	private int receiveCount;

	private volatile LoopbackQueuePair peer;

	private volatile LoopbackConnection connection;

	// Receiver-not-ready state: written by the engine only (rnrWaiting is read by posters).
	private volatile boolean rnrWaiting;

	private int rnrRetriesLeft;

	private long rnrGeneration;

	LoopbackQueuePair(LoopbackProvider provider, QueuePairAttributes attributes, int qpn) {
		this.provider = provider;
		this.engine = provider.engine();
		this.attributes = attributes;
		this.pd = (SoftwareProtectionDomain) attributes.protectionDomain();
		this.table = this.pd.table();
		this.sendCq = (SoftwareCompletionQueue) attributes.sendCompletionQueue();
		this.recvCq = (SoftwareCompletionQueue) attributes.receiveCompletionQueue();
		this.qpn = qpn;
		this.rnrPolicy = attributes.rnrPolicy();
		this.checks = new PostingChecks(qpn, attributes);
		this.sendQueue = new SendWorkRequest[attributes.maxSendWorkRequests()];
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
		synchronized (this.sendQueue) {
			if (this.state == QueuePairState.CLOSED) {
				throw this.checks.closed();
			}
			if (this.sendCount == this.sendQueue.length) {
				throw this.checks.sendQueueFull(this.sendQueue.length);
			}
			int slot = this.sendHead + this.sendCount;
			if (slot >= this.sendQueue.length) {
				slot -= this.sendQueue.length;
			}
			this.sendQueue[slot] = workRequest;
			this.sendCount++;
		}
		this.engine.kick(this);
	}

	@Override
	public void postRecv(ReceiveWorkRequest workRequest) {
		this.checks.checkReceiveSges(workRequest);
		synchronized (this.receiveQueue) {
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
		}
		if (this.state == QueuePairState.ERROR) {
			this.engine.kick(this);
			return;
		}
		// A Send waiting for a receive retries at once rather than after its RNR timer.
		LoopbackQueuePair sender = this.peer;
		if (sender != null && sender.rnrWaiting) {
			sender.engine.kick(sender);
		}
	}

	@Override
	public void close() {
		if (this.state == QueuePairState.CLOSED) {
			return;
		}
		LoopbackConnection current = this.connection;
		if (current != null) {
			current.disconnect();
		}
		enterError("queue pair " + this.qpn + " closed");
		this.engine.runAndWait(() -> {
			flush();
			synchronized (this.sendQueue) {
				synchronized (this.receiveQueue) {
					this.state = QueuePairState.CLOSED;
				}
			}
		});
		this.provider.queuePairClosed(this);
	}

	// ---- called by the engine -------------------------------------------------------

	void kick() {
		this.engine.kick(this);
	}

	boolean markScheduled() {
		return !this.scheduled.get() && this.scheduled.compareAndSet(false, true);
	}

	void clearScheduled() {
		this.scheduled.set(false);
	}

	/**
	 * Executes the send queue in order until it is empty, a Send waits for a receive, or a
	 * budget is used up (then reschedules itself, for fairness among queue pairs).
	 */
	void process() {
		if (this.state != QueuePairState.RTS) {
			if (this.state == QueuePairState.ERROR || this.state == QueuePairState.CLOSED) {
				flush();
			}
			return;
		}
		for (int budget = 0; budget < 32; budget++) {
			SendWorkRequest wr = peekSend();
			if (wr == null) {
				return;
			}
			if (!execute(wr)) {
				return;
			}
			if (this.state != QueuePairState.RTS) {
				flush();
				return;
			}
		}
		this.engine.kick(this);
	}

	/**
	 * Executes the head of the send queue.
	 * @return {@code true} if it is done (successfully or not), {@code false} if it waits
	 */
	private boolean execute(SendWorkRequest wr) {
		LoopbackQueuePair target = this.peer;
		if (target == null || target.state != QueuePairState.RTS) {
			// The connection is going down; the state change that follows flushes this.
			return false;
		}
		SendOpcode opcode = wr.opcode();
		List<ScatterGatherEntry> local = wr.sgList();
		String problem = this.table.checkLocalAccess(local, opcode == SendOpcode.RDMA_READ, this.pd);
		if (problem != null) {
			return fail(wr, CompletionStatus.LOC_PROT_ERR, problem);
		}
		long total = wr.totalLength();
		if (total > Integer.MAX_VALUE) {
			return fail(wr, CompletionStatus.LOC_LEN_ERR,
					"work request of " + total + " bytes exceeds the maximum message size of 2^31-1");
		}
		int length = (int) total;
		return switch (opcode) {
			case SEND, SEND_WITH_INVALIDATE -> executeSend(wr, target, length);
			case RDMA_WRITE -> executeWrite(wr, target, length);
			case RDMA_READ -> executeRead(wr, target, length);
		};
	}

	private boolean executeSend(SendWorkRequest wr, LoopbackQueuePair target, int length) {
		ReceiveWorkRequest recv = target.takeReceive();
		if (recv == null) {
			if (target.state != QueuePairState.RTS) {
				return false;
			}
			receiverNotReady();
			return false;
		}
		clearReceiverNotReady();
		boolean withInvalidate = wr.opcode() == SendOpcode.SEND_WITH_INVALIDATE;
		if (withInvalidate) {
			try {
				target.table.invalidateRemotely(wr.invalidateStag(), target.pd, target);
			}
			catch (RemoteAccessException ex) {
				target.recvCq.completeAndNotify(recv.wrId(), CompletionOpcode.RECV, CompletionStatus.WR_FLUSH_ERR, 0,
						target.qpn, false, 0, "flushed: the connection failed");
				return fail(wr, CompletionStatus.REM_ACCESS_ERR, "peer refused Send with Invalidate ("
						+ ex.error() + "): " + ex.getMessage());
			}
		}
		String problem = target.table.checkLocalAccess(recv.sgList(), true, target.pd);
		if (problem != null) {
			target.recvCq.completeAndNotify(recv.wrId(), CompletionOpcode.RECV, CompletionStatus.LOC_PROT_ERR, 0, target.qpn,
					false, 0, "receive buffer unusable: " + problem);
			return fail(wr, CompletionStatus.REM_OP_ERR, "peer's receive buffer is unusable: " + problem);
		}
		long room = recv.totalLength();
		if (length > room) {
			String detail = "incoming Send of " + length + " bytes does not fit the posted receive of " + room
					+ " bytes";
			target.recvCq.completeAndNotify(recv.wrId(), CompletionOpcode.RECV, CompletionStatus.LOC_LEN_ERR, 0, target.qpn,
					false, 0, detail);
			return fail(wr, CompletionStatus.REM_INV_REQ_ERR, "peer's " + detail);
		}
		DataPlacement.copy(wr.sgList(), recv.sgList());
		target.recvCq.completeAndNotify(recv.wrId(), CompletionOpcode.RECV, CompletionStatus.SUCCESS, length, target.qpn,
				withInvalidate, withInvalidate ? wr.invalidateStag() : 0, null);
		succeed(wr, CompletionOpcode.SEND, length);
		return true;
	}

	private boolean executeWrite(SendWorkRequest wr, LoopbackQueuePair target, int length) {
		SoftwareMemoryRegion region;
		try {
			region = target.table.checkRemoteAccess(wr.remoteAddress().stag(), wr.remoteAddress().address(), length,
					AccessFlag.REMOTE_WRITE, target.pd, target);
		}
		catch (RemoteAccessException ex) {
			return fail(wr, CompletionStatus.REM_ACCESS_ERR,
					"peer refused RDMA Write (" + ex.error() + "): " + ex.getMessage());
		}
		DataPlacement.gather(wr.sgList(), region, region.offsetOf(wr.remoteAddress().address()));
		succeed(wr, CompletionOpcode.RDMA_WRITE, length);
		return true;
	}

	private boolean executeRead(SendWorkRequest wr, LoopbackQueuePair target, int length) {
		SoftwareMemoryRegion region;
		try {
			region = target.table.checkRemoteAccess(wr.remoteAddress().stag(), wr.remoteAddress().address(), length,
					AccessFlag.REMOTE_READ, target.pd, target);
		}
		catch (RemoteAccessException ex) {
			return fail(wr, CompletionStatus.REM_ACCESS_ERR,
					"peer refused RDMA Read (" + ex.error() + "): " + ex.getMessage());
		}
		DataPlacement.scatter(region, region.offsetOf(wr.remoteAddress().address()), wr.sgList());
		succeed(wr, CompletionOpcode.RDMA_READ, length);
		return true;
	}

	private void succeed(SendWorkRequest wr, CompletionOpcode opcode, int length) {
		removeSendHead();
		if (wr.signaled()) {
			this.sendCq.completeAndNotify(wr.wrId(), opcode, CompletionStatus.SUCCESS, length, this.qpn, false, 0, null);
		}
	}

	/**
	 * Completes the head work request in error after failing the connection, so that
	 * whoever sees the error completion also sees the queue pair in error. Its flush
	 * completions follow on this engine.
	 */
	private boolean fail(SendWorkRequest wr, CompletionStatus status, String detail) {
		removeSendHead();
		failConnection(status + ": " + detail);
		this.sendCq.completeAndNotify(wr.wrId(), CompletionOpcode.of(wr.opcode()), status, 0, this.qpn, false, 0, detail);
		return true;
	}

	private void receiverNotReady() {
		if (this.rnrWaiting) {
			return;
		}
		this.rnrWaiting = true;
		this.rnrRetriesLeft = this.rnrPolicy.retryCount();
		long generation = ++this.rnrGeneration;
		this.engine.schedule(this.rnrPolicy.timer().toNanos(), () -> rnrTimerExpired(generation));
	}

	private void clearReceiverNotReady() {
		if (this.rnrWaiting) {
			this.rnrWaiting = false;
			this.rnrGeneration++;
		}
	}

	private void rnrTimerExpired(long generation) {
		if (generation != this.rnrGeneration || !this.rnrWaiting) {
			return;
		}
		process();
		if (generation != this.rnrGeneration || !this.rnrWaiting || this.state != QueuePairState.RTS) {
			return;
		}
		if (this.rnrPolicy.isInfinite() || this.rnrRetriesLeft > 0) {
			this.rnrRetriesLeft--;
			this.engine.schedule(this.rnrPolicy.timer().toNanos(), () -> rnrTimerExpired(generation));
			return;
		}
		clearReceiverNotReady();
		SendWorkRequest wr = peekSend();
		if (wr != null) {
			fail(wr, CompletionStatus.RNR_RETRY_EXC_ERR, "the peer posted no receive within " + this.rnrPolicy.retryCount()
					+ " receiver-not-ready retries of " + this.rnrPolicy.timer().toMillis() + " ms");
			flush();
		}
	}

	// ---- queues ---------------------------------------------------------------------

	private SendWorkRequest peekSend() {
		synchronized (this.sendQueue) {
			return (this.sendCount == 0) ? null : this.sendQueue[this.sendHead];
		}
	}

	private void removeSendHead() {
		synchronized (this.sendQueue) {
			this.sendQueue[this.sendHead] = null;
			this.sendHead = (this.sendHead + 1 == this.sendQueue.length) ? 0 : this.sendHead + 1;
			this.sendCount--;
		}
	}

	private SendWorkRequest pollSend() {
		synchronized (this.sendQueue) {
			if (this.sendCount == 0) {
				return null;
			}
			SendWorkRequest wr = this.sendQueue[this.sendHead];
			this.sendQueue[this.sendHead] = null;
			this.sendHead = (this.sendHead + 1 == this.sendQueue.length) ? 0 : this.sendHead + 1;
			this.sendCount--;
			return wr;
		}
	}

	/**
	 * Takes the oldest posted receive for an arriving Send, if the queue pair can receive.
	 */
	private ReceiveWorkRequest takeReceive() {
		synchronized (this.receiveQueue) {
			if (this.receiveCount == 0 || this.state != QueuePairState.RTS) {
				return null;
			}
			return pollReceiveLocked();
		}
	}

	private ReceiveWorkRequest pollReceive() {
		synchronized (this.receiveQueue) {
			return (this.receiveCount == 0) ? null : pollReceiveLocked();
		}
	}

	private ReceiveWorkRequest pollReceiveLocked() {
		ReceiveWorkRequest wr = this.receiveQueue[this.receiveHead];
		this.receiveQueue[this.receiveHead] = null;
		this.receiveHead = (this.receiveHead + 1 == this.receiveQueue.length) ? 0 : this.receiveHead + 1;
		this.receiveCount--;
		return wr;
	}

	/**
	 * Completes every outstanding work request with {@code WR_FLUSH_ERR}, sends first.
	 * Runs on the engine.
	 */
	private void flush() {
		clearReceiverNotReady();
		String detail = "flushed: " + this.errorDetail;
		SendWorkRequest send;
		while ((send = pollSend()) != null) {
			this.sendCq.completeAndNotify(send.wrId(), CompletionOpcode.of(send.opcode()), CompletionStatus.WR_FLUSH_ERR, 0,
					this.qpn, false, 0, detail);
		}
		ReceiveWorkRequest recv;
		while ((recv = pollReceive()) != null) {
			this.recvCq.completeAndNotify(recv.wrId(), CompletionOpcode.RECV, CompletionStatus.WR_FLUSH_ERR, 0, this.qpn,
					false, 0, detail);
		}
	}

	// ---- connection -----------------------------------------------------------------

	/**
	 * Fails the connection this queue pair belongs to (both queue pairs go to error), or
	 * just this queue pair if it has none.
	 */
	void failConnection(String detail) {
		LoopbackConnection current = this.connection;
		if (current != null) {
			current.fail(detail);
		}
		enterError(detail);
	}

	/**
	 * Moves to the error state and has the engine flush the queues.
	 */
	void enterError(String detail) {
		synchronized (this.stateLock) {
			if (this.state == QueuePairState.INIT || this.state == QueuePairState.RTS) {
				this.errorDetail = detail;
				this.state = QueuePairState.ERROR;
			}
			else {
				return;
			}
		}
		this.engine.kick(this);
	}

	void enterReadyToSend(LoopbackQueuePair remote) {
		synchronized (this.stateLock) {
			if (this.state != QueuePairState.INIT) {
				throw new QueuePairStateException(
						"Queue pair " + this.qpn + " is " + this.state + ", not INIT; a queue pair connects only once");
			}
			this.peer = remote;
			this.state = QueuePairState.RTS;
		}
		this.engine.kick(this);
	}

	boolean attach(LoopbackConnection value) {
		synchronized (this.stateLock) {
			if (this.connection != null || this.state != QueuePairState.INIT) {
				return false;
			}
			this.connection = value;
			return true;
		}
	}

	LoopbackConnection connection() {
		return this.connection;
	}

	LoopbackProvider provider() {
		return this.provider;
	}

	@Override
	public String toString() {
		return "LoopbackQueuePair[qpn=" + this.qpn + ", state=" + this.state + "]";
	}

}

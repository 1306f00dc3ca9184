package io.rpcrdma.verbs.disni;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.List;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.SVCPollCq;
import com.ibm.disni.verbs.SVCReqNotify;

import io.rpcrdma.verbs.CompletionHandler;
import io.rpcrdma.verbs.CompletionOpcode;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.support.CompletionNotifier;
import io.rpcrdma.verbs.CompletionQueueOverrunException;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.WorkCompletion;

/**
 * A completion queue on the adapter ({@code ibv_create_cq} with its own completion
 * channel) in front of which sits a ring of pre-allocated SPI completions.
 * <p>
 * Polling runs one prebuilt {@code SVCPollCq} into a fixed {@code IbvWC} array and copies
 * each completion into the ring at once, because DiSNI refills that array on the next
 * poll (DiSNI issue 44); translating there also turns the provider's hardware wr_ids back
 * into the caller's (see {@link WorkRequestIds}). Completions the provider makes itself
 * (flushes of receives that never reached the adapter) enter the same ring.
 * <p>
 * Notification: in {@link CompletionMode#EVENT} {@link #requestNotification()} arms the
 * adapter ({@code ibv_req_notify_cq}) and a thread per queue sleeps on the completion
 * channel; in {@link CompletionMode#BUSY_POLL} the provider's poller thread pumps the
 * adapter queue into the ring and calls the handler when armed. Handler calls never
 * overlap.
 */
final class DisniCompletionQueue implements CompletionQueue {

	private static final System.Logger logger = System.getLogger(DisniCompletionQueue.class.getName());

	/** Acknowledging completion events takes a lock in libibverbs; do it in batches. */
	private static final int ACK_BATCH = 32;

	private final DisniProvider provider;

	private final int capacity;

	private final CompletionNotifier notifier;

	private final CompletionMode mode;

	private final IbvCompChannel channel;

	private final IbvCQ cq;

	private final IbvWC[] polled;

	private final SVCPollCq pollCall;

	private final SVCReqNotify notifyCall;

	private final WorkCompletion[] ring;

	private final int mask;

	private final Thread eventThread;

	private final int waitMillis;

	private long head;

	private long tail;

	private boolean overrun;

	private String overrunDetail;

	private volatile boolean closed;

	DisniCompletionQueue(DisniProvider provider, int capacity, CompletionHandler handler, IbvCompChannel channel,
			IbvCQ cq) throws IOException {
		this.provider = provider;
		this.capacity = capacity;
		this.notifier = new CompletionNotifier(this, handler);
		this.mode = provider.settings().completionMode();
		this.channel = channel;
		this.cq = cq;
		int batch = provider.settings().pollBatch();
		this.polled = new IbvWC[batch];
		for (int i = 0; i < batch; i++) {
			this.polled[i] = new IbvWC();
		}
		this.pollCall = cq.poll(this.polled, batch);
		this.notifyCall = cq.reqNotification(false);
		int size = Integer.highestOneBit(capacity + batch);
		if (size < capacity + batch) {
			size <<= 1;
		}
		this.ring = new WorkCompletion[size];
		for (int i = 0; i < size; i++) {
			this.ring[i] = new WorkCompletion();
		}
		this.mask = size - 1;
		this.waitMillis = provider.settings().cqWaitMillis();
		if (handler != null && this.mode == CompletionMode.EVENT) {
			this.eventThread = provider.newThread("cq-events", this::awaitEvents);
		}
		else {
			this.eventThread = null;
		}
	}

	void start() {
		if (this.eventThread != null) {
			this.eventThread.start();
		}
	}

	IbvCQ ibvCq() {
		return this.cq;
	}

	@Override
	public DisniProvider provider() {
		return this.provider;
	}

	boolean hasHandler() {
		return this.notifier.hasHandler();
	}

	@Override
	public int capacity() {
		return this.capacity;
	}

	@Override
	public int poll(WorkCompletion[] completions) {
		synchronized (this) {
			if (this.overrun) {
				throw new CompletionQueueOverrunException(this.overrunDetail);
			}
			if (this.closed) {
				return 0;
			}
			if (this.tail - this.head < completions.length) {
				pumpLocked();
			}
			int n = (int) Math.min(completions.length, this.tail - this.head);
			for (int i = 0; i < n; i++) {
				WorkCompletion into = completions[i];
				if (into == null) {
					into = new WorkCompletion();
					completions[i] = into;
				}
				into.copyFrom(this.ring[(int) (this.head & this.mask)]);
				this.head++;
			}
			return n;
		}
	}

	/**
	 * Moves what the adapter has into the ring, for a queue pair that waits for its flushes
	 * or for the busy poller.
	 * @return the number of completions moved
	 */
	int pump() {
		synchronized (this) {
			return this.closed ? 0 : pumpLocked();
		}
	}

	/**
	 * Polls the adapter while the ring has room for a whole batch.
	 */
	private int pumpLocked() {
		int moved = 0;
		int batch = this.polled.length;
		while (!this.overrun && this.ring.length - (this.tail - this.head) >= batch) {
			int n;
			try {
				n = this.pollCall.execute().getPolls();
			}
			catch (IOException ex) {
				// ibv_poll_cq fails when the queue is in error, which an overrun causes.
				markOverrun("ibv_poll_cq failed on the completion queue of capacity " + this.capacity + " ("
						+ DisniProtectionDomain.describe(ex) + "); the queue is in error, most likely because it "
						+ "overran: create it with a capacity of at least the sum of the queue depths of its queue "
						+ "pairs");
				break;
			}
			for (int i = 0; i < n; i++) {
				if (translate(this.polled[i], this.ring[(int) (this.tail & this.mask)])) {
					this.tail++;
					moved++;
				}
			}
			if (n < batch) {
				break;
			}
		}
		return moved;
	}

	/**
	 * Copies one adapter completion into a ring slot.
	 * @return {@code false} if it belongs to no outstanding work request (a queue pair that
	 * was closed and reported its work flushed already)
	 */
	private boolean translate(IbvWC wc, WorkCompletion into) {
		long wrId = wc.getWr_id();
		DisniQueuePair qp = this.provider.queuePair(WorkRequestIds.queuePairIndex(wrId));
		if (qp == null) {
			return false;
		}
		return WorkRequestIds.isReceive(wrId) ? qp.completeReceive(wc, into)
				: qp.completeSend(wc, WorkRequestIds.slot(wrId), into);
	}

	/**
	 * Adds completions the provider made itself (flushes of work the adapter never saw),
	 * then notifies if armed.
	 * @param completions the completions, in order
	 */
	void addProviderCompletions(List<WorkCompletion> completions) {
		if (completions.isEmpty()) {
			return;
		}
		synchronized (this) {
			if (this.closed) {
				return;
			}
			for (WorkCompletion completion : completions) {
				if (this.tail - this.head >= this.capacity) {
					markOverrun("Completion queue of capacity " + this.capacity + " overran and lost completions; "
							+ "create it with a capacity of at least the sum of the queue depths of its queue pairs");
					break;
				}
				this.ring[(int) (this.tail & this.mask)].copyFrom(completion);
				this.tail++;
			}
		}
		this.notifier.notifyIfArmed();
	}

	/**
	 * A flushed completion made by the provider.
	 */
	static WorkCompletion flushed(long wrId, CompletionOpcode opcode, int qpn, String detail) {
		return new WorkCompletion().set(wrId, opcode, CompletionStatus.WR_FLUSH_ERR, 0, qpn, false, 0,
				"flushed: " + detail);
	}

	private void markOverrun(String detail) {
		if (!this.overrun) {
			logger.log(Level.ERROR, detail);
			this.overrun = true;
			this.overrunDetail = detail;
		}
	}

	@Override
	public void requestNotification() {
		this.notifier.arm();
		if (this.mode == CompletionMode.EVENT) {
			synchronized (this.notifyCall) {
				if (this.closed) {
					return;
				}
				try {
					this.notifyCall.execute();
				}
				catch (IOException ex) {
					throw new IllegalStateException("ibv_req_notify_cq failed: " + DisniProtectionDomain.describe(ex)
							+ "; the completion queue is closed or in error", ex);
				}
			}
		}
	}

	/**
	 * Busy-poll mode: pumps and calls the handler if new completions arrived while armed.
	 * @return {@code true} if anything arrived
	 */
	boolean pollForHandler() {
		int moved = pump();
		if (moved > 0) {
			this.notifier.notifyIfArmed();
			return true;
		}
		return false;
	}

	/**
	 * Event mode: sleeps on the completion channel; wakes up every {@code waitMillis} to
	 * notice that the queue was closed.
	 */
	private void awaitEvents() {
		int unacknowledged = 0;
		while (!this.closed) {
			boolean event;
			try {
				event = this.channel.getCqEvent(this.cq, this.waitMillis);
			}
			catch (IOException ex) {
				if (!this.closed) {
					logger.log(Level.ERROR, "Waiting for completion events failed; handler notification stops", ex);
				}
				break;
			}
			if (!event) {
				continue;
			}
			unacknowledged++;
			if (unacknowledged >= ACK_BATCH) {
				acknowledge(unacknowledged);
				unacknowledged = 0;
			}
			this.notifier.notifyIfArmed();
		}
		// ibv_destroy_cq waits for every event to be acknowledged.
		acknowledge(unacknowledged);
		if (this.closedByHandler) {
			destroy();
		}
	}

	private void acknowledge(int events) {
		if (events > 0) {
			try {
				this.cq.ackEvents(events);
			}
			catch (IOException ex) {
				logger.log(Level.WARNING, "ibv_ack_cq_events failed", ex);
			}
		}
	}

	private volatile boolean closedByHandler;

	@Override
	public boolean isClosed() {
		return this.closed;
	}

	@Override
	public void close() {
		synchronized (this) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			this.head = this.tail;
		}
		this.provider.completionQueueClosing(this);
		if (this.eventThread == Thread.currentThread()) {
			// Closed by a handler on the event thread, which still holds events it has not
			// acknowledged: ibv_destroy_cq would wait for them forever. The thread destroys the
			// queue once its loop has acknowledged them.
			this.closedByHandler = true;
			return;
		}
		if (this.eventThread != null) {
			try {
				this.eventThread.join(10L * this.waitMillis + 1000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		destroy();
	}

	private void destroy() {
		synchronized (this.notifyCall) {
			synchronized (this) {
				this.pollCall.free();
				this.notifyCall.free();
				try {
					this.cq.destroyCQ();
				}
				catch (IOException ex) {
					logger.log(Level.WARNING, "ibv_destroy_cq failed; close the queue pairs that use a completion "
							+ "queue before the queue", ex);
				}
				try {
					this.channel.destroyCompChannel();
				}
				catch (IOException ex) {
					logger.log(Level.WARNING, "ibv_destroy_comp_channel failed", ex);
				}
			}
		}
		this.provider.completionQueueClosed(this);
	}

	@Override
	public String toString() {
		return "DisniCompletionQueue[capacity=" + this.capacity + ", mode=" + this.mode.value() + "]";
	}

}

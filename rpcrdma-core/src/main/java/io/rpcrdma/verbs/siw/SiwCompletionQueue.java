package io.rpcrdma.verbs.siw;

import java.lang.System.Logger.Level;

import io.rpcrdma.verbs.CompletionHandler;
import io.rpcrdma.verbs.CompletionOpcode;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.CompletionQueueOverrunException;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.WorkCompletion;
import io.rpcrdma.verbs.support.CompletionNotifier;

/**
 * A completion queue: a ring of pre-allocated {@link WorkCompletion} slots, so that
 * producing and polling completions allocates nothing. The notification handler runs on
 * the thread that produced the completion, outside the queue pair's lock (a connection's receive or transmit thread, or a poster; no thread hop), never twice at once.
 */
final class SiwCompletionQueue implements CompletionQueue {

	private static final System.Logger logger = System.getLogger(SiwCompletionQueue.class.getName());

	private final SiwProvider provider;

	private final int capacity;

	private final WorkCompletion[] ring;

	private final int mask;

	private final CompletionNotifier notifier;

	private long head;

	private long tail;

	// tail - head, published for the lock-free "anything there?" check of a busy poller,
	// so that spinning on an empty queue never contends with the engines adding to it.
	private volatile int queued;

	private volatile boolean overrun;

	private volatile boolean closed;

	SiwCompletionQueue(SiwProvider provider, int capacity, CompletionHandler handler) {
		if (capacity <= 0 || capacity > (1 << 24)) {
			throw new IllegalArgumentException("Completion queue capacity must be 1 to 2^24, got " + capacity);
		}
		this.provider = provider;
		this.capacity = capacity;
		int size = Integer.highestOneBit(capacity);
		if (size < capacity) {
			size <<= 1;
		}
		this.ring = new WorkCompletion[size];
		for (int i = 0; i < size; i++) {
			this.ring[i] = new WorkCompletion();
		}
		this.mask = size - 1;
		this.notifier = new CompletionNotifier(this, handler);
	}

	@Override
	public int capacity() {
		return this.capacity;
	}

	/**
	 * Adds a completion; {@link #notifyIfArmed()} then runs the handler.
	 */
	void complete(long wrId, CompletionOpcode opcode, CompletionStatus status, int byteLength, int qpn,
			boolean withInvalidate, int invalidatedStag, String detail) {
		synchronized (this) {
			if (this.closed) {
				return;
			}
			if (this.tail - this.head == this.capacity) {
				if (!this.overrun) {
					logger.log(Level.ERROR, "Completion queue overrun: capacity " + this.capacity
							+ " is smaller than the outstanding work requests; completions are lost");
				}
				this.overrun = true;
			}
			else {
				this.ring[(int) (this.tail & this.mask)].set(wrId, opcode, status, byteLength, qpn, withInvalidate,
						invalidatedStag, detail);
				this.tail++;
				this.queued = (int) (this.tail - this.head);
			}
		}
	}

	/**
	 * Runs the handler if the queue is armed. Queue pairs call this after adding completions
	 * and releasing their own lock, so that a handler never runs under a provider lock and
	 * may take application locks that posting threads hold.
	 */
	void notifyIfArmed() {
		if (this.queued > 0) {
			this.notifier.notifyIfArmed();
		}
	}

	@Override
	public int poll(WorkCompletion[] completions) {
		if (this.queued == 0 && !this.overrun) {
			return 0;
		}
		synchronized (this) {
			if (this.overrun) {
				throw new CompletionQueueOverrunException("Completion queue of capacity " + this.capacity
						+ " overran and lost completions; create it with a capacity of at least the sum of the "
						+ "queue depths of its queue pairs");
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
			this.queued = (int) (this.tail - this.head);
			return n;
		}
	}

	@Override
	public void requestNotification() {
		this.notifier.arm();
	}

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
			this.queued = 0;
		}
		this.provider.completionQueueClosed(this);
	}

	SiwProvider provider() {
		return this.provider;
	}

}

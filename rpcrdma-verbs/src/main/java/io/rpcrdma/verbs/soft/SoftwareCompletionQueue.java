package io.rpcrdma.verbs.soft;

import java.lang.System.Logger.Level;
import java.util.function.Consumer;

import io.rpcrdma.verbs.CompletionHandler;
import io.rpcrdma.verbs.CompletionOpcode;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.CompletionQueueOverrunException;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.WorkCompletion;
import io.rpcrdma.verbs.support.CompletionNotifier;
import io.rpcrdma.verbs.support.CompletionRing;

/**
 * The completion queue of the software providers (loopback and siw): a {@link CompletionRing}
 * that grows with the completions waiting, so that producing and polling completions
 * allocates nothing once warm and an idle connection's queue holds a few slots.
 * The notification handler runs on the thread that produced the completion (no thread hop),
 * never twice at once; providers call {@link #notifyIfArmed()} after releasing their own
 * locks, so that a handler never runs under a provider lock and may take application locks
 * that posting threads hold.
 */
public final class SoftwareCompletionQueue implements CompletionQueue {

	private static final System.Logger logger = System.getLogger(SoftwareCompletionQueue.class.getName());

	private final RdmaProvider provider;

	private final Consumer<SoftwareCompletionQueue> onClose;

	private final int capacity;

	// Guarded by this.
	private final CompletionRing ring;

	private final CompletionNotifier notifier;

	// tail - head, published for the lock-free "anything there?" check of a busy poller,
	// so that spinning on an empty queue never contends with the engines adding to it.
	private volatile int queued;

	private volatile boolean overrun;

	private volatile boolean closed;

	/**
	 * Creates a completion queue.
	 * @param provider the provider that owns it; queue pairs accept only their own provider's
	 * @param capacity the number of completions it holds, 1 to 2^24
	 * @param handler the notification handler, or {@code null} for a queue that is only polled
	 * @param onClose told once when the queue is closed, so the provider forgets it
	 */
	public SoftwareCompletionQueue(RdmaProvider provider, int capacity, CompletionHandler handler,
			Consumer<SoftwareCompletionQueue> onClose) {
		this.ring = new CompletionRing(capacity);
		this.provider = provider;
		this.onClose = onClose;
		this.capacity = capacity;
		this.notifier = new CompletionNotifier(this, handler);
	}

	@Override
	public int capacity() {
		return this.capacity;
	}

	/**
	 * Adds a completion; {@link #notifyIfArmed()} then runs the handler.
	 * @param wrId the work request's id
	 * @param opcode what completed
	 * @param status how it ended
	 * @param byteLength bytes transferred
	 * @param qpn the queue pair number
	 * @param withInvalidate whether a received Send invalidated an STag
	 * @param invalidatedStag that STag
	 * @param detail a description of an error, or {@code null}
	 */
	public void complete(long wrId, CompletionOpcode opcode, CompletionStatus status, int byteLength, int qpn,
			boolean withInvalidate, int invalidatedStag, String detail) {
		synchronized (this) {
			if (this.closed) {
				return;
			}
			if (this.ring.isFull()) {
				if (!this.overrun) {
					logger.log(Level.ERROR, "Completion queue overrun: capacity " + this.capacity
							+ " is smaller than the outstanding work requests; completions are lost");
				}
				this.overrun = true;
			}
			else {
				this.ring.nextSlot()
					.set(wrId, opcode, status, byteLength, qpn, withInvalidate, invalidatedStag, detail);
				this.ring.commit();
				this.queued = this.ring.size();
			}
		}
	}

	/**
	 * Adds a completion and runs the handler at once if the queue is armed, for providers
	 * that produce completions outside their own locks (loopback).
	 * @param wrId the work request's id
	 * @param opcode what completed
	 * @param status how it ended
	 * @param byteLength bytes transferred
	 * @param qpn the queue pair number
	 * @param withInvalidate whether a received Send invalidated an STag
	 * @param invalidatedStag that STag
	 * @param detail a description of an error, or {@code null}
	 */
	public void completeAndNotify(long wrId, CompletionOpcode opcode, CompletionStatus status, int byteLength, int qpn,
			boolean withInvalidate, int invalidatedStag, String detail) {
		complete(wrId, opcode, status, byteLength, qpn, withInvalidate, invalidatedStag, detail);
		notifyIfArmed();
	}

	/**
	 * Runs the handler if the queue is armed and holds completions. Call after adding
	 * completions and releasing the provider's own locks.
	 */
	public void notifyIfArmed() {
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
			int n = this.ring.drainTo(completions);
			this.queued = this.ring.size();
			return n;
		}
	}

	/** @return the slots its ring has now, for tests of its growth */
	synchronized int slots() {
		return this.ring.slots();
	}

	@Override
	public void requestNotification() {
		this.notifier.arm();
	}

	@Override
	public boolean isClosed() {
		return this.closed;
	}

	/** The most {@link #close()} waits for a handler running on another thread to return. */
	static final long CLOSE_WAIT_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(1);

	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		// A handler running elsewhere drains once more after it re-arms: what was added while
		// it ran (a flush, when the queue pair was closed just before) reaches it, not the bin.
		// Bounded: a handler that blocks, against the rule, costs the close a second.
		this.notifier.awaitDispatchEnd(CLOSE_WAIT_NANOS);
		synchronized (this) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			this.ring.clear();
			this.queued = 0;
		}
		this.onClose.accept(this);
	}

	@Override
	public RdmaProvider provider() {
		return this.provider;
	}

}

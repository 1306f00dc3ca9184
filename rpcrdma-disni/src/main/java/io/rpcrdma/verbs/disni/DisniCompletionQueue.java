package io.rpcrdma.verbs.disni;

import java.lang.System.Logger.Level;
import java.util.List;

import com.ibm.disni.verbs.IbvWC;

import io.rpcrdma.verbs.CompletionHandler;
import io.rpcrdma.verbs.CompletionOpcode;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.CompletionQueueOverrunException;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.WorkCompletion;
import io.rpcrdma.verbs.support.CompletionNotifier;
import io.rpcrdma.verbs.support.CompletionRing;

/**
 * An SPI completion queue: a ring of completions ({@link CompletionRing}, growing with those
 * waiting) that the provider's shared adapter completion queues ({@link SharedCompletionQueue})
 * fill with the completions of this queue's queue pairs, and that {@link #poll} empties. It has no adapter queue and no
 * thread of its own: the thread that polls the shared adapter queue copies each completion
 * in at once (DiSNI refills its {@code IbvWC} array on the next poll, DiSNI issue 44),
 * turning the provider's hardware wr_ids back into the caller's ({@link WorkRequestIds}),
 * and calls the handler, if armed, after each batch. Completions the provider makes itself
 * (flushes of work the adapter never saw) enter the same ring.
 * <p>
 * Handler calls never overlap. The ring holds {@link #capacity()} completions: like an
 * adapter queue, it overruns if its queue pairs have more outstanding, and then only this
 * queue is in error.
 */
final class DisniCompletionQueue implements CompletionQueue, CompletionDispatcher.Sink {

	private static final System.Logger logger = System.getLogger(DisniCompletionQueue.class.getName());

	private final DisniProvider provider;

	private final int capacity;

	private final CompletionNotifier notifier;

	// Guarded by this.
	private final CompletionRing ring;

	/** Takes a completion that is retired but not kept (closed or overrun queue). */
	private final WorkCompletion discard = new WorkCompletion();

	private boolean overrun;

	private String overrunDetail;

	private volatile boolean closed;

	DisniCompletionQueue(DisniProvider provider, int capacity, CompletionHandler handler) {
		this.provider = provider;
		this.capacity = capacity;
		this.notifier = new CompletionNotifier(this, handler);
		this.ring = new CompletionRing(capacity);
	}

	@Override
	public DisniProvider provider() {
		return this.provider;
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
			return this.ring.drainTo(completions);
		}
	}

	/**
	 * Takes one adapter completion of one of this queue's queue pairs (called by the shared
	 * queue's poller).
	 * @param wc the adapter's completion
	 * @param qp the queue pair its wr_id names
	 * @return {@code true} if the queue has something new to report (its handler is to be
	 * told), {@code false} if the completion belonged to no outstanding work request or the
	 * queue is closed
	 */
	boolean deliver(IbvWC wc, DisniQueuePair qp) {
		synchronized (this) {
			boolean keep = !this.closed && !this.overrun;
			boolean full = this.ring.isFull();
			WorkCompletion into = (keep && !full) ? this.ring.nextSlot() : this.discard;
			if (!qp.complete(wc, into) || !keep) {
				return false;
			}
			if (full) {
				markOverrun("Completion queue of capacity " + this.capacity + " overran and lost completions; create "
						+ "it with a capacity of at least the sum of the queue depths of its queue pairs");
			}
			else {
				this.ring.commit();
			}
			return true;
		}
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
				if (this.ring.isFull()) {
					markOverrun("Completion queue of capacity " + this.capacity + " overran and lost completions; "
							+ "create it with a capacity of at least the sum of the queue depths of its queue pairs");
					break;
				}
				this.ring.nextSlot().copyFrom(completion);
				this.ring.commit();
			}
		}
		this.notifier.notifyIfArmed();
	}

	/**
	 * The shared adapter queue of one of this queue's queue pairs failed and lost
	 * completions: this queue reports an overrun from now on.
	 * @param detail why
	 */
	void sharedQueueFailed(String detail) {
		synchronized (this) {
			if (this.closed) {
				return;
			}
			markOverrun(detail);
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

	/**
	 * Arms the queue. The shared adapter queues are always armed by their threads, so this
	 * is the SPI's arming only: the next completion delivered calls the handler.
	 */
	@Override
	public void requestNotification() {
		this.notifier.arm();
	}

	@Override
	public void notifyIfArmed() {
		this.notifier.notifyIfArmed();
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
			this.ring.clear();
		}
		this.provider.completionQueueClosed(this);
	}

	@Override
	public String toString() {
		return "DisniCompletionQueue[capacity=" + this.capacity + "]";
	}

}

package io.rpcrdma.verbs.support;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import io.rpcrdma.verbs.CompletionHandler;
import io.rpcrdma.verbs.CompletionQueue;

/**
 * The notification half of a completion queue, shared by providers: verbs semantics of
 * {@code ibv_req_notify_cq} (one notification per arming, re-arm to get the next) and
 * serialised handler calls, since completions of one queue can come from several engine
 * threads and a handler must never run concurrently with itself.
 * <p>
 * Dispatch never blocks: a thread that finds a handler call in progress leaves a note and
 * returns, and the running call loops once more for it.
 */
public final class CompletionNotifier {

	private static final System.Logger logger = System.getLogger(CompletionNotifier.class.getName());

	private final CompletionQueue queue;

	private final CompletionHandler handler;

	private final AtomicBoolean armed = new AtomicBoolean();

	private final AtomicInteger dispatching = new AtomicInteger();

	// The thread running the handler now, or null: the one a closing queue waits for. Cleared
	// only by the thread that set it: a dispatcher that starts between another's last
	// decrement and its clearing keeps its mark.
	private final AtomicReference<Thread> dispatcher = new AtomicReference<>();

	/**
	 * Creates a notifier.
	 * @param queue the queue handed to the handler
	 * @param handler the handler, or {@code null} for a queue that is only polled
	 */
	public CompletionNotifier(CompletionQueue queue, CompletionHandler handler) {
		this.queue = queue;
		this.handler = handler;
	}

	/**
	 * Whether the queue has a handler to notify.
	 * @return {@code true} if created with a handler
	 */
	public boolean hasHandler() {
		return this.handler != null;
	}

	/**
	 * Arms the queue: the next completion (or one already queued, when the provider checks)
	 * calls the handler once.
	 * @throws IllegalStateException if the queue has no handler
	 */
	public void arm() {
		if (this.handler == null) {
			throw new IllegalStateException(
					"This completion queue has no handler to notify; create it with a CompletionHandler or poll it");
		}
		this.armed.set(true);
	}

	/**
	 * Calls the handler if the queue is armed, disarming it. Call after adding completions.
	 */
	public void notifyIfArmed() {
		if (this.handler != null && this.armed.get() && this.armed.compareAndSet(true, false)) {
			dispatch();
		}
	}

	private void dispatch() {
		if (this.dispatching.getAndIncrement() != 0) {
			return;
		}
		Thread current = Thread.currentThread();
		this.dispatcher.set(current);
		try {
			do {
				try {
					this.handler.onCompletion(this.queue);
				}
				catch (Throwable ex) {
					logger.log(Level.ERROR, "Completion handler threw; handlers must handle their errors", ex);
				}
			}
			while (this.dispatching.decrementAndGet() != 0);
		}
		finally {
			this.dispatcher.compareAndSet(current, null);
		}
	}

	/**
	 * Waits, for at most {@code timeoutNanos}, until a handler call running on another thread
	 * has returned: a queue about to discard its completions lets a handler that is between its
	 * drain and its re-arm drain once more first (the drain / re-arm / drain idiom), so that a
	 * completion added meanwhile, which found the queue disarmed, is not lost to the close
	 * (the flush of a queue pair closed just before its queue). Returns at once on the handler's
	 * own thread, or when no handler runs.
	 * @param timeoutNanos the most to wait
	 * @return whether no handler call runs on another thread now
	 */
	public boolean awaitDispatchEnd(long timeoutNanos) {
		long deadline = System.nanoTime() + timeoutNanos;
		while (true) {
			Thread running = this.dispatcher.get();
			if (running == null || running == Thread.currentThread()) {
				return true;
			}
			if (System.nanoTime() - deadline >= 0) {
				return false;
			}
			LockSupport.parkNanos(20_000);
		}
	}

}

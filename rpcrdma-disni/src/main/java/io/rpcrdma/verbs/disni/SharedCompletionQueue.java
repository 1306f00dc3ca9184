package io.rpcrdma.verbs.disni;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * One adapter completion queue that many queue pairs share, with the thread that polls it:
 * in {@link CompletionMode#EVENT} its own event thread ({@link #runEvents()}), in
 * {@link CompletionMode#BUSY_POLL} the provider's busy poller ({@link #pollBatch()}). This is
 * what Linux's xprtrdma and svcrdma do with {@code ib_alloc_cq_any} and NFS-Ganesha's ntirpc
 * with its one completion thread: no connection has a thread of its own.
 * <p>
 * Every poll takes one batch of at most {@code disni.poll-batch} completions, hands each to
 * its queue pair and tells the SPI queues that received any before taking the next batch. The
 * adapter queue gives completions in the order the adapter made them, whatever the queue pair,
 * so a busy connection cannot hold back the others' completions: each waits behind at most
 * what arrived before it, and its handler is called after the batch it arrived in.
 * <p>
 * The queue pairs reserve entries for their whole send and receive depths
 * ({@link SharedCompletionQueues}), so the adapter queue cannot overrun. Should it fail anyway
 * ({@code ibv_poll_cq} fails on a queue in error), every queue pair on it is told, and their
 * SPI queues report the overrun.
 */
final class SharedCompletionQueue {

	private static final System.Logger logger = System.getLogger(SharedCompletionQueue.class.getName());

	/** Acknowledging completion events takes a lock in libibverbs; do it in batches. */
	static final int ACK_BATCH = 32;

	/** What a queue pair on this queue learns when the queue fails. */
	interface Member {

		/**
		 * The adapter queue is in error; completions were lost.
		 * @param detail why, for the SPI queue's overrun exception
		 */
		void sharedQueueFailed(String detail);

	}

	private final int number;

	private final AdapterCompletionQueue adapter;

	private final CompletionDispatcher dispatcher;

	private final int waitMillis;

	private final Object adapterLock = new Object();

	private final Set<Member> members = ConcurrentHashMap.newKeySet();

	/** Entries reserved by queue pairs; guarded by {@link SharedCompletionQueues}. */
	private int reserved;

	private volatile Thread poller;

	private Thread eventThread;

	private volatile boolean closed;

	private volatile boolean failed;

	private boolean destroyed;

	private boolean destroyByPoller;

	/**
	 * @param number the queue's number in its provider, for names and messages
	 * @param adapter the adapter queue
	 * @param dispatcher where polled completions go
	 * @param waitMillis how long the event thread waits for an event before it checks for close
	 */
	SharedCompletionQueue(int number, AdapterCompletionQueue adapter, CompletionDispatcher dispatcher,
			int waitMillis) {
		this.number = number;
		this.adapter = adapter;
		this.dispatcher = dispatcher;
		this.waitMillis = waitMillis;
	}

	int number() {
		return this.number;
	}

	AdapterCompletionQueue adapter() {
		return this.adapter;
	}

	int capacity() {
		return this.adapter.capacity();
	}

	int reserved() {
		return this.reserved;
	}

	void reserve(int entries, Member member) {
		this.reserved += entries;
		this.members.add(member);
	}

	void release(int entries, Member member) {
		this.reserved -= entries;
		this.members.remove(member);
	}

	boolean isFailed() {
		return this.failed;
	}

	/**
	 * Whether the calling thread is the one that polls this queue; only it may call
	 * {@link #pollBatch()}, so a handler (which runs there) may, while others wait.
	 * @return {@code true} on the poller
	 */
	boolean isPollerThread() {
		return this.poller == Thread.currentThread();
	}

	/**
	 * Takes one batch from the adapter queue, delivers it and notifies the SPI queues that
	 * received completions. Only the poller thread calls it.
	 * @return the completions taken, 0 if none, -1 if the queue is closed or failed
	 */
	int pollBatch() {
		if (this.poller == null) {
			this.poller = Thread.currentThread();
		}
		int n;
		String failure = null;
		synchronized (this.adapterLock) {
			if (this.destroyed || this.failed) {
				return -1;
			}
			try {
				n = this.adapter.poll();
				this.dispatcher.dispatch(this.adapter.polled(), n);
			}
			catch (IOException ex) {
				n = -1;
				failure = "ibv_poll_cq failed on shared completion queue " + this.number + " of " + capacity()
						+ " entries (" + DisniProtectionDomain.describe(ex) + "); the queue is in error, most likely "
						+ "because it overran";
			}
		}
		if (failure != null) {
			fail(failure);
		}
		this.dispatcher.notifyTouched();
		return n;
	}

	/**
	 * Polls batch after batch until the adapter queue has no more.
	 */
	private void drain() {
		int batch = this.adapter.polled().length;
		int n;
		do {
			n = pollBatch();
		}
		while (n == batch && !this.closed);
	}

	/**
	 * The event thread's loop: sleeps on the completion channel, and on each event re-arms
	 * the queue and drains it (verbs: arm before the last poll, so that nothing arriving in
	 * between goes unnoticed). Wakes every {@code waitMillis} to notice {@link #close()}.
	 */
	void runEvents() {
		this.poller = Thread.currentThread();
		int unacknowledged = 0;
		try {
			if (!arm()) {
				return;
			}
			while (!this.closed && !this.failed) {
				drain();
				if (this.closed || this.failed) {
					break;
				}
				boolean event;
				try {
					event = this.adapter.awaitEvent(this.waitMillis);
				}
				catch (IOException ex) {
					if (!this.closed) {
						fail("waiting for completion events on shared completion queue " + this.number + " failed ("
								+ DisniProtectionDomain.describe(ex) + ")");
					}
					break;
				}
				if (!event) {
					continue;
				}
				if (++unacknowledged >= ACK_BATCH) {
					this.adapter.acknowledge(unacknowledged);
					unacknowledged = 0;
				}
				if (!arm()) {
					break;
				}
			}
		}
		finally {
			// ibv_destroy_cq waits for every event to be acknowledged.
			this.adapter.acknowledge(unacknowledged);
			boolean destroyNow;
			synchronized (this.adapterLock) {
				destroyNow = this.destroyByPoller;
			}
			if (destroyNow) {
				destroy();
			}
		}
	}

	private boolean arm() {
		try {
			this.adapter.requestNotification();
			return true;
		}
		catch (IOException ex) {
			if (!this.closed) {
				fail("ibv_req_notify_cq failed on shared completion queue " + this.number + " ("
						+ DisniProtectionDomain.describe(ex) + ")");
			}
			return false;
		}
	}

	private void fail(String detail) {
		if (this.failed) {
			return;
		}
		this.failed = true;
		logger.log(Level.ERROR, detail + "; its " + this.members.size() + " queue pairs fail");
		for (Member member : this.members) {
			member.sharedQueueFailed(detail);
		}
	}

	/**
	 * Starts the event thread ({@link CompletionMode#EVENT}).
	 * @param threads makes the (not yet started) thread that runs the given loop
	 */
	void startEvents(Function<Runnable, Thread> threads) {
		this.eventThread = threads.apply(this::runEvents);
		this.eventThread.start();
	}

	/**
	 * Stops polling and destroys the adapter queue, once its queue pairs are gone. Called
	 * from the event thread (a handler closing the provider), it leaves the destruction to
	 * the thread's loop, which still holds events to acknowledge. In busy-poll mode the
	 * provider has stopped its busy poller first.
	 */
	void close() {
		this.closed = true;
		Thread eventThread = this.eventThread;
		if (eventThread != null && eventThread == Thread.currentThread()) {
			synchronized (this.adapterLock) {
				this.destroyByPoller = true;
			}
			return;
		}
		if (eventThread != null) {
			try {
				eventThread.join(10L * this.waitMillis + 1000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		destroy();
	}

	private void destroy() {
		synchronized (this.adapterLock) {
			if (this.destroyed) {
				return;
			}
			this.destroyed = true;
			this.adapter.destroy();
		}
	}

	@Override
	public String toString() {
		return "SharedCompletionQueue[" + this.number + ", entries=" + capacity() + ", reserved=" + this.reserved + "]";
	}

}

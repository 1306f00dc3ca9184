package io.rpcrdma.verbs.disni;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvWC;

/**
 * An adapter completion queue in memory: the test adds completions (or a source that never
 * runs dry) and raises channel events; the queue records arming, acknowledgements and
 * destruction in the order they happen.
 */
final class FakeAdapterCompletionQueue implements AdapterCompletionQueue {

	private final IbvWC[] polled;

	private final int capacity;

	private final ArrayDeque<Long> completions = new ArrayDeque<>();

	private final Semaphore events = new Semaphore(0);

	private final List<String> calls = new ArrayList<>();

	private LongSupplier endless;

	private IOException pollFailure;

	private int polls;

	private int acknowledged;

	private final AtomicInteger eventsTaken = new AtomicInteger();

	FakeAdapterCompletionQueue(int batch, int capacity) {
		this.polled = new IbvWC[batch];
		for (int i = 0; i < batch; i++) {
			this.polled[i] = new IbvWC();
		}
		this.capacity = capacity;
	}

	/** Queues completions with these hardware wr_ids. */
	synchronized FakeAdapterCompletionQueue add(long... wrIds) {
		for (long wrId : wrIds) {
			this.completions.add(wrId);
		}
		return this;
	}

	/** After the queued completions, an endless stream of these. */
	synchronized void thenEndless(LongSupplier wrIds) {
		this.endless = wrIds;
	}

	synchronized void failPolls(IOException failure) {
		this.pollFailure = failure;
	}

	/** Raises a channel event, as the adapter does for an armed queue. */
	void raiseEvent() {
		this.events.release();
	}

	/**
	 * Waits until the poller has taken this many events in all.
	 * @return whether it did within 10 seconds
	 */
	boolean awaitEventsTaken(int count) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (this.eventsTaken.get() < count) {
			if (System.nanoTime() - deadline > 0) {
				return false;
			}
			Thread.onSpinWait();
		}
		return true;
	}

	int eventsTaken() {
		return this.eventsTaken.get();
	}

	synchronized int queued() {
		return this.completions.size();
	}

	synchronized int polls() {
		return this.polls;
	}

	synchronized int acknowledged() {
		return this.acknowledged;
	}

	synchronized List<String> calls() {
		return List.copyOf(this.calls);
	}

	@Override
	public IbvWC[] polled() {
		return this.polled;
	}

	@Override
	public synchronized int poll() throws IOException {
		if (this.pollFailure != null) {
			throw this.pollFailure;
		}
		this.polls++;
		int n = 0;
		while (n < this.polled.length) {
			Long wrId = this.completions.poll();
			if (wrId == null && this.endless != null) {
				wrId = this.endless.getAsLong();
			}
			if (wrId == null) {
				break;
			}
			// qp_num is whatever the adapter left there: verbs does not define it for errors.
			this.polled[n].setWr_id(wrId);
			this.polled[n].setQp_num(-1);
			n++;
		}
		return n;
	}

	@Override
	public synchronized void requestNotification() {
		this.calls.add("arm");
	}

	@Override
	public boolean awaitEvent(int millis) throws IOException {
		try {
			boolean event = this.events.tryAcquire(millis, TimeUnit.MILLISECONDS);
			if (event) {
				this.eventsTaken.incrementAndGet();
			}
			return event;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("interrupted", ex);
		}
	}

	@Override
	public synchronized void acknowledge(int count) {
		if (count > 0) {
			this.acknowledged += count;
			this.calls.add("ack " + count);
		}
	}

	@Override
	public synchronized void destroy() {
		this.calls.add("destroy");
	}

	@Override
	public int capacity() {
		return this.capacity;
	}

	@Override
	public IbvCQ ibvCq() {
		return null;
	}

}

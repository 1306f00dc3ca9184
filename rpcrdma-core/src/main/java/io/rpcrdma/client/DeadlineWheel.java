package io.rpcrdma.client;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A hashed timing wheel for call deadlines: one daemon thread, ticks of {@link #TICK}, and one
 * small node per scheduled task that is also its {@link CallTimer.Timeout}, so scheduling and
 * cancelling a deadline costs one allocation and no queue reshuffling (a
 * {@code ScheduledThreadPoolExecutor} allocates a task, a future and a cancel handle per
 * deadline, and keeps a heap of them). Deadlines fire up to one tick late, never early.
 * <p>
 * Each bucket is a doubly linked list guarded by its own lock, so threads scheduling into
 * different buckets do not contend; a node remembers its bucket, so cancelling is O(1). A
 * deadline further away than one turn of the wheel waits in its bucket and is skipped until
 * its turn comes. With nothing scheduled the thread parks until the next schedule.
 */
final class DeadlineWheel implements CallTimer, AutoCloseable {

	private static final System.Logger logger = System.getLogger(DeadlineWheel.class.getName());

	/** The shared wheel's resolution. */
	static final Duration TICK = Duration.ofMillis(5);

	/** The shared wheel's buckets: one turn is about five seconds. */
	static final int BUCKETS = 1024;

	private final long tickNanos;

	private final int mask;

	private final Node[] buckets;

	private final long origin = System.nanoTime();

	private final AtomicInteger scheduled = new AtomicInteger();

	private final Thread thread;

	private volatile boolean closed;

	DeadlineWheel(String threadName) {
		this(threadName, TICK, BUCKETS);
	}

	/**
	 * @param threadName the timer thread's name
	 * @param tick the resolution
	 * @param buckets the number of buckets, a power of two
	 */
	DeadlineWheel(String threadName, Duration tick, int buckets) {
		if (Integer.bitCount(buckets) != 1 || tick.isNegative() || tick.isZero()) {
			throw new IllegalArgumentException("a positive tick and a power-of-two bucket count are needed, got " + tick
					+ " and " + buckets);
		}
		this.tickNanos = tick.toNanos();
		this.mask = buckets - 1;
		this.buckets = new Node[buckets];
		for (int i = 0; i < buckets; i++) {
			Node head = new Node(0, null);
			head.next = head;
			head.prev = head;
			this.buckets[i] = head;
		}
		this.thread = new Thread(this::run, threadName);
		this.thread.setDaemon(true);
		this.thread.start();
	}

	@Override
	public Timeout schedule(Duration delay, Runnable task) {
		long deadline = System.nanoTime() + Math.max(0, delay.toNanos());
		Node node = new Node(deadline, task);
		Node head = this.buckets[(int) (tickOf(deadline) & this.mask)];
		synchronized (head) {
			node.head = head;
			node.prev = head.prev;
			node.next = head;
			head.prev.next = node;
			head.prev = node;
		}
		if (this.scheduled.incrementAndGet() == 1) {
			LockSupport.unpark(this.thread);
		}
		return node;
	}

	/** The tick at or after which a deadline is due: ticks are counted from {@link #origin}. */
	private long tickOf(long deadline) {
		return Math.floorDiv(deadline - this.origin + this.tickNanos - 1, this.tickNanos);
	}

	private void run() {
		long done = tickOf(System.nanoTime()) - 1;
		while (!this.closed) {
			if (this.scheduled.get() == 0) {
				long idleSince = System.nanoTime();
				LockSupport.park(this);
				// Nothing was due before the thread went idle, and whatever was scheduled since
				// is due at or after idleSince: resume from there, not from the last tick done.
				done = Math.max(done, Math.floorDiv(idleSince - this.origin, this.tickNanos) - 1);
			}
			long now = System.nanoTime();
			long current = Math.floorDiv(now - this.origin, this.tickNanos);
			// Catch up with every tick passed (a slow task or a descheduled thread); one turn
			// of the wheel visits every bucket.
			long last = Math.min(current, done + this.buckets.length);
			for (long tick = done + 1; tick <= last; tick++) {
				expire(this.buckets[(int) (tick & this.mask)], now);
			}
			done = Math.max(done, last);
			long wait = this.origin + (done + 1) * this.tickNanos - System.nanoTime();
			if (wait > 0 && this.scheduled.get() > 0) {
				LockSupport.parkNanos(this, wait);
			}
		}
	}

	/** Stops the thread; deadlines not yet run never will. The shared wheel is never closed. */
	@Override
	public void close() {
		this.closed = true;
		LockSupport.unpark(this.thread);
	}

	/** Runs every node of the bucket whose deadline has passed, outside the bucket's lock. */
	private void expire(Node head, long now) {
		Node due = null;
		synchronized (head) {
			Node node = head.next;
			while (node != head) {
				Node next = node.next;
				if (node.deadline - now <= 0) {
					node.unlink();
					node.next = due;
					due = node;
				}
				node = next;
			}
		}
		while (due != null) {
			Node node = due;
			due = node.next;
			node.next = null;
			this.scheduled.decrementAndGet();
			try {
				node.task.run();
			}
			catch (RuntimeException | Error ex) {
				logger.log(Level.WARNING, "A call deadline task failed", ex);
			}
		}
	}

	/** A scheduled task, linked in its bucket until it runs or is cancelled. */
	private final class Node implements Timeout {

		final long deadline;

		final Runnable task;

		Node head;

		Node prev;

		Node next;

		Node(long deadline, Runnable task) {
			this.deadline = deadline;
			this.task = task;
		}

		/** Unlinks under the bucket's lock; false if it was not linked (ran or cancelled). */
		boolean unlink() {
			if (this.prev == null) {
				return false;
			}
			this.prev.next = this.next;
			this.next.prev = this.prev;
			this.prev = null;
			this.next = null;
			return true;
		}

		@Override
		public void cancel() {
			Node bucket = this.head;
			if (bucket == null) {
				return;
			}
			boolean removed;
			synchronized (bucket) {
				removed = unlink();
			}
			if (removed) {
				DeadlineWheel.this.scheduled.decrementAndGet();
			}
		}

	}

}

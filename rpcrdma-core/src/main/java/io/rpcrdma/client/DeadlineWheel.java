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
 * deadline, and keeps a heap of them). An owner that schedules one deadline at a time, such as a
 * recycled call, keeps a {@link #newNode reusable node} and allocates nothing at all. Deadlines
 * fire up to one tick late, never early.
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

	/** The wheel thread's list of nodes due in one bucket, reused from tick to tick. */
	private Node[] dueNodes = new Node[16];

	private int[] dueStamps = new int[16];

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
			Node head = new Node(this, null, null);
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
		Node node = new Node(this, task, null);
		link(node, System.nanoTime() + Math.max(0, delay.toNanos()), 0);
		return node;
	}

	/**
	 * Makes a node to schedule again and again, one deadline at a time, so that an object
	 * recycled from call to call schedules its deadlines without allocating.
	 * @param expiry told when a deadline passes, with the stamp it was scheduled with
	 * @return the node, for {@link #schedule(Node, long, int)} and {@link Node#cancel()}
	 */
	Node newNode(Expiry expiry) {
		return new Node(this, null, expiry);
	}

	/**
	 * Schedules a reusable node; it must not be scheduled already (cancel it first, or let it
	 * fire). The stamp tells a late firing of an earlier schedule from this one: the wheel may
	 * fire a node that another thread cancelled a moment too late, so {@link Expiry} checks it.
	 * @param node a node from {@link #newNode}
	 * @param delayNanos how long from now
	 * @param stamp handed to the expiry when it fires
	 */
	void schedule(Node node, long delayNanos, int stamp) {
		link(node, System.nanoTime() + Math.max(0, delayNanos), stamp);
	}

	private void link(Node node, long deadline, int stamp) {
		Node head = this.buckets[(int) (tickOf(deadline) & this.mask)];
		synchronized (head) {
			node.deadline = deadline;
			node.stamp = stamp;
			node.head = head;
			node.prev = head.prev;
			node.next = head;
			head.prev.next = node;
			head.prev = node;
		}
		if (this.scheduled.incrementAndGet() == 1) {
			LockSupport.unpark(this.thread);
		}
	}

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
				expire(this.buckets[(int) (tick & this.mask)], tick, now);
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

	/**
	 * Runs every node of the bucket whose deadline has passed and belongs to this tick or an
	 * earlier one, outside the bucket's lock. A node of a later turn waits for its own tick
	 * even when it is due: catching up after a late wake-up, the bucket is visited for an
	 * earlier tick first, and firing it then would run it before deadlines that come earlier.
	 */
	private void expire(Node head, long tick, long now) {
		int count = 0;
		synchronized (head) {
			Node node = head.next;
			while (node != head) {
				Node next = node.next;
				if (node.deadline - now <= 0 && tickOf(node.deadline) <= tick) {
					node.unlink();
					if (count == this.dueNodes.length) {
						this.dueNodes = java.util.Arrays.copyOf(this.dueNodes, count * 2);
						this.dueStamps = java.util.Arrays.copyOf(this.dueStamps, count * 2);
					}
					// Collected aside, not chained through the nodes: once unlinked, a reusable
					// node may be scheduled again by its owner while it waits here.
					this.dueNodes[count] = node;
					this.dueStamps[count] = node.stamp;
					count++;
				}
				node = next;
			}
		}
		for (int i = 0; i < count; i++) {
			Node node = this.dueNodes[i];
			this.dueNodes[i] = null;
			this.scheduled.decrementAndGet();
			try {
				node.fire(this.dueStamps[i]);
			}
			catch (RuntimeException | Error ex) {
				logger.log(Level.WARNING, "A call deadline task failed", ex);
			}
		}
	}

	/**
	 * What a reusable node runs when its deadline passes.
	 */
	@FunctionalInterface
	interface Expiry {

		/**
		 * A deadline passed.
		 * @param stamp the stamp it was scheduled with
		 */
		void expired(int stamp);

	}

	/** A scheduled deadline: a one-shot task, or a reusable node's {@link Expiry}. */
	static final class Node implements Timeout {

		private final DeadlineWheel wheel;

		private final Runnable task;

		private final Expiry expiry;

		long deadline;

		int stamp;

		Node head;

		Node prev;

		Node next;

		Node(DeadlineWheel wheel, Runnable task, Expiry expiry) {
			this.wheel = wheel;
			this.task = task;
			this.expiry = expiry;
		}

		void fire(int firedStamp) {
			if (this.expiry != null) {
				this.expiry.expired(firedStamp);
			}
			else {
				this.task.run();
			}
		}

		/** Under the bucket's lock. */
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

		/**
		 * Cancels the deadline if it has not been taken for firing; no effect otherwise (a
		 * reusable node's expiry then sees its stamp and ignores the firing).
		 */
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
				this.wheel.scheduled.decrementAndGet();
			}
		}

	}

}

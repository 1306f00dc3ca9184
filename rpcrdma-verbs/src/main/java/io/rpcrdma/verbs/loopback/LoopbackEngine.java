package io.rpcrdma.verbs.loopback;

import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.rpcrdma.verbs.RdmaException;

/**
 * The loopback device's engine: one thread that executes the send queues of the device's
 * queue pairs in posting order (the transmit side), places the data directly in the peer's
 * memory and receive queue (the receive side of the peer), and runs timers (receiver-not
 * ready retries, connect timeouts) and connection manager tasks.
 * <p>
 * Nothing the engine does ever waits for anything: data placement is a memory copy into
 * memory that is checked and owned at that moment, a missing receive parks the Send and
 * retries on a timer or when a receive is posted, and handlers are required not to block.
 * So a receiver never blocks on a send and bidirectional traffic cannot deadlock, which is
 * what separate RX and TX engines give an adapter.
 * <p>
 * When idle the thread spins briefly ({@code loopback.spin-micros}) before parking, so a
 * request-response exchange costs no thread wake-up while traffic flows.
 */
final class LoopbackEngine implements Runnable {

	private static final System.Logger logger = System.getLogger(LoopbackEngine.class.getName());

	private static final AtomicInteger ids = new AtomicInteger();

	private final Thread thread;

	private final ArrayDeque<LoopbackQueuePair> ready = new ArrayDeque<>();

	private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();

	private final PriorityQueue<Timer> timers = new PriorityQueue<>();

	private final long spinNanos;

	/** A yield longer than this means the cores are all busy: the engine stops spinning. */
	private static final long OVERSUBSCRIBED_YIELD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	/** How long the engine parks at once, without spinning, after such a yield. */
	private static final long NO_SPIN_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	/** Engine thread only: when the engine may spin again. */
	private long spinAgainAt = System.nanoTime();

	private long timerSequence;

	private volatile boolean sleeping;

	private volatile boolean running = true;

	LoopbackEngine(long spinNanos) {
		this.spinNanos = spinNanos;
		this.thread = new EngineThread(this, "rpcrdma-loopback-engine-" + ids.incrementAndGet());
		this.thread.setDaemon(true);
	}

	void start() {
		this.thread.start();
	}

	boolean inEngine() {
		return Thread.currentThread() == this.thread;
	}

	/**
	 * Schedules a queue pair's send queue for processing (no allocation).
	 * @param qp the queue pair
	 */
	void kick(LoopbackQueuePair qp) {
		if (qp.markScheduled()) {
			synchronized (this.ready) {
				this.ready.addLast(qp);
			}
			wake();
		}
	}

	void execute(Runnable task) {
		this.tasks.add(task);
		wake();
	}

	void schedule(long delayNanos, Runnable task) {
		long deadline = System.nanoTime() + delayNanos;
		if (inEngine()) {
			this.timers.add(new Timer(deadline, this.timerSequence++, task));
		}
		else {
			execute(() -> this.timers.add(new Timer(deadline, this.timerSequence++, task)));
		}
	}

	/**
	 * Runs a task on the engine and waits for it, or runs it at once on the engine thread.
	 * On another engine's thread (a handler of one device closing a queue pair of another)
	 * it does not wait, because engines must never wait for each other.
	 * @param task the task
	 */
	void runAndWait(Runnable task) {
		if (inEngine() || !this.thread.isAlive()) {
			task.run();
			return;
		}
		if (Thread.currentThread() instanceof EngineThread) {
			execute(task);
			return;
		}
		CompletableFuture<Void> done = new CompletableFuture<>();
		execute(() -> {
			try {
				task.run();
				done.complete(null);
			}
			catch (Throwable ex) {
				done.completeExceptionally(ex);
			}
		});
		try {
			done.get(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RdmaException("Interrupted while waiting for the loopback engine", ex);
		}
		catch (ExecutionException ex) {
			throw new RdmaException("Loopback engine task failed: " + ex.getCause(), ex.getCause());
		}
		catch (TimeoutException ex) {
			throw new RdmaException("The loopback engine did not run a task within 10 s; a completion or "
					+ "connection handler is probably blocking, which handlers must not do", ex);
		}
	}

	/**
	 * Stops the thread after it ran the tasks already queued, and waits for it unless
	 * called on the engine thread.
	 */
	void shutdown() {
		this.running = false;
		LockSupport.unpark(this.thread);
		if (!inEngine()) {
			try {
				this.thread.join(TimeUnit.SECONDS.toMillis(10));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			if (this.thread.isAlive()) {
				logger.log(Level.WARNING, "{0} did not stop within 10 s; a handler is blocking", this.thread.getName());
			}
		}
	}

	@Override
	public void run() {
		long idleSince = 0;
		while (this.running) {
			boolean worked = runTasks();
			worked |= runTimers();
			worked |= runReady();
			if (worked) {
				idleSince = 0;
				continue;
			}
			long now = System.nanoTime();
			if (idleSince == 0) {
				idleSince = now;
			}
			if (now - idleSince < this.spinNanos && now - this.spinAgainAt >= 0) {
				// Yield rather than spin on the CPU: when the thread that will post the next
				// work request shares this CPU, spinning would only delay it. But a yielding
				// thread stays runnable, so new work does not wake it: when every core is busy
				// it runs again only after a whole scheduler slice (about 4 ms). A yield that
				// took that long says so, and the engine parks at once for a while, as a
				// parked thread is woken as soon as work comes.
				Thread.yield();
				long after = System.nanoTime();
				if (after - now > OVERSUBSCRIBED_YIELD_NANOS) {
					this.spinAgainAt = after + NO_SPIN_NANOS;
				}
				continue;
			}
			this.sleeping = true;
			if (!hasWork() && this.running) {
				Timer next = this.timers.peek();
				if (next == null) {
					LockSupport.park(this);
				}
				else {
					LockSupport.parkNanos(this, next.deadline - System.nanoTime());
				}
			}
			this.sleeping = false;
			idleSince = 0;
		}
		runTasks();
	}

	private boolean hasWork() {
		if (!this.tasks.isEmpty()) {
			return true;
		}
		synchronized (this.ready) {
			if (!this.ready.isEmpty()) {
				return true;
			}
		}
		Timer next = this.timers.peek();
		return next != null && next.deadline - System.nanoTime() <= 0;
	}

	private void wake() {
		if (this.sleeping && !inEngine()) {
			LockSupport.unpark(this.thread);
		}
	}

	private boolean runTasks() {
		boolean worked = false;
		Runnable task;
		while ((task = this.tasks.poll()) != null) {
			worked = true;
			try {
				task.run();
			}
			catch (Throwable ex) {
				logger.log(Level.ERROR, "Loopback engine task failed", ex);
			}
		}
		return worked;
	}

	private boolean runTimers() {
		boolean worked = false;
		Timer next;
		while ((next = this.timers.peek()) != null && next.deadline - System.nanoTime() <= 0) {
			this.timers.poll();
			worked = true;
			try {
				next.task.run();
			}
			catch (Throwable ex) {
				logger.log(Level.ERROR, "Loopback engine timer failed", ex);
			}
		}
		return worked;
	}

	private boolean runReady() {
		boolean worked = false;
		// Bounded so that tasks and timers are not starved by a busy queue pair.
		for (int i = 0; i < 64; i++) {
			LoopbackQueuePair qp;
			synchronized (this.ready) {
				qp = this.ready.pollFirst();
			}
			if (qp == null) {
				break;
			}
			worked = true;
			qp.clearScheduled();
			try {
				qp.process();
			}
			catch (Throwable ex) {
				logger.log(Level.ERROR, "Loopback queue pair " + qp.queuePairNumber() + " failed", ex);
				qp.failConnection("internal error in the loopback provider: " + ex);
			}
		}
		return worked;
	}

	private static final class EngineThread extends Thread {

		EngineThread(Runnable body, String name) {
			super(body, name);
		}

	}

	private record Timer(long deadline, long sequence, Runnable task) implements Comparable<Timer> {

		@Override
		public int compareTo(Timer other) {
			int byDeadline = Long.compare(this.deadline - other.deadline, 0);
			return (byDeadline != 0) ? byDeadline : Long.compare(this.sequence, other.sequence);
		}

	}

}

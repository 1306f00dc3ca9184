package io.rpcrdma.server;

import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where the {@link RpcDispatcher} runs procedure handlers.
 * <ul>
 * <li>{@link #direct()}: on the thread that delivered the call, with no hand-off, for
 * handlers that never block (a blocking handler there stalls the connection's receive path);
 * <li>{@link #boundedPool(int, int)}: a fixed pool with a bounded queue; when both are full
 * the call is refused and answered SYSTEM_ERR at once instead of queueing without limit;
 * <li>{@link #virtualThreads(int)}: one virtual thread per call on Java 21 or later, with a
 * bound on concurrent calls; on Java 17 it falls back to a bounded pool and says so.
 * </ul>
 * {@link #tryExecute} reports refusal by its result rather than by an exception, so an
 * overloaded server does not pay for stack traces.
 */
public interface ServerExecutor extends AutoCloseable {

	/**
	 * Runs a task now or later, or refuses it.
	 * @param task the work of one call; it never throws
	 * @return {@code false} if the executor is saturated or closed and will not run the task
	 */
	boolean tryExecute(Runnable task);

	/**
	 * Runs a task in the place of the task calling this, which is about to end: the two count
	 * as one against the executor's bound, so a connection's next call ({@link ConnectionShare})
	 * is not refused merely because the pool still counts the call that makes room for it. Call
	 * only from within a task of this executor, at most once per task.
	 * @param task the work of one call; it never throws
	 * @return {@code false} if the executor is closed (or, by default, saturated) and will not
	 * run the task
	 */
	default boolean tryHandOver(Runnable task) {
		return tryExecute(task);
	}

	/**
	 * @return what this executor is, for logs and health reports
	 */
	String description();

	/**
	 * Stops accepting tasks; tasks already accepted still run. Does not wait.
	 */
	@Override
	void close();

	/**
	 * @return an executor running each task on the caller's thread
	 */
	static ServerExecutor direct() {
		return DirectExecutor.INSTANCE;
	}

	/**
	 * @param threads the number of worker threads
	 * @param queueCapacity how many calls may wait for a worker before new calls are refused
	 * @return a bounded pool of daemon threads named {@code rpcrdma-server-N}
	 */
	static ServerExecutor boundedPool(int threads, int queueCapacity) {
		return new BoundedPoolExecutor(threads, queueCapacity, "rpcrdma-server-");
	}

	/**
	 * @param threads the number of worker threads
	 * @param queueCapacity how many calls may wait for a worker before new calls are refused
	 * @param threadNamePrefix prefix of the worker threads' names
	 * @return a bounded pool of daemon threads
	 */
	static ServerExecutor boundedPool(int threads, int queueCapacity, String threadNamePrefix) {
		return new BoundedPoolExecutor(threads, queueCapacity, threadNamePrefix);
	}

	/**
	 * One virtual thread per call, at most {@code maxConcurrentCalls} at once, on Java 21 or
	 * later. On an older runtime, logs why and returns a bounded pool of
	 * {@code 2 × available processors} threads queueing up to {@code maxConcurrentCalls} calls.
	 * @param maxConcurrentCalls calls beyond this many running are refused
	 * @return the executor; its {@link #description()} says which kind it is
	 */
	static ServerExecutor virtualThreads(int maxConcurrentCalls) {
		return VirtualThreadExecutor.create(maxConcurrentCalls);
	}

	/**
	 * @return whether this runtime has virtual threads (Java 21 or later)
	 */
	static boolean virtualThreadsAvailable() {
		return VirtualThreadExecutor.factoryMethod() != null;
	}

}

/** Runs tasks on the caller's thread. */
final class DirectExecutor implements ServerExecutor {

	static final DirectExecutor INSTANCE = new DirectExecutor();

	@Override
	public boolean tryExecute(Runnable task) {
		task.run();
		return true;
	}

	@Override
	public String description() {
		return "direct (handlers run on the transport's receive thread)";
	}

	@Override
	public void close() {
	}

}

/**
 * A fixed pool with a bounded queue that refuses rather than blocks when full. The bound is
 * counted here (calls queued or running, at most threads + queue capacity) rather than by the
 * queue, so that a task may hand its place to the next ({@link #tryHandOver}) while the pool
 * still counts it; the queue has room for one such hand-over per worker beyond the bound.
 */
final class BoundedPoolExecutor implements ServerExecutor {

	private final ThreadPoolExecutor pool;

	private final String description;

	private final int bound;

	/** Calls queued or running; one more for a moment per hand-over in progress. */
	private final AtomicInteger admitted = new AtomicInteger();

	BoundedPoolExecutor(int threads, int queueCapacity, String threadNamePrefix) {
		this(threads, queueCapacity, threadNamePrefix, null);
	}

	BoundedPoolExecutor(int threads, int queueCapacity, String threadNamePrefix, String description) {
		if (threads < 1) {
			throw new IllegalArgumentException("a bounded server pool needs at least 1 thread, not " + threads);
		}
		if (queueCapacity < 0) {
			throw new IllegalArgumentException("queue capacity must be 0 or more, not " + queueCapacity);
		}
		AtomicInteger counter = new AtomicInteger();
		ThreadFactory factory = (task) -> {
			Thread thread = new Thread(task, threadNamePrefix + counter.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
		this.bound = threads + queueCapacity;
		// A capacity of 0 admits a call only while fewer than `threads` are in the pool: a
		// hand-off to an idle worker, as a SynchronousQueue would.
		this.pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
				new ArrayBlockingQueue<>(this.bound + threads), factory, new ThreadPoolExecutor.AbortPolicy()) {

			@Override
			protected void afterExecute(Runnable task, Throwable failure) {
				BoundedPoolExecutor.this.admitted.decrementAndGet();
			}

		};
		this.description = (description != null) ? description
				: "bounded pool of " + threads + " threads, queue of " + queueCapacity;
	}

	@Override
	public boolean tryExecute(Runnable task) {
		if (this.admitted.incrementAndGet() > this.bound) {
			this.admitted.decrementAndGet();
			return false;
		}
		return submit(task);
	}

	@Override
	public boolean tryHandOver(Runnable task) {
		// The calling task is still counted until its afterExecute: the bound is not checked.
		this.admitted.incrementAndGet();
		return submit(task);
	}

	private boolean submit(Runnable task) {
		try {
			this.pool.execute(task);
			return true;
		}
		catch (RejectedExecutionException ex) {
			this.admitted.decrementAndGet();
			return false;
		}
	}

	@Override
	public String description() {
		return this.description;
	}

	@Override
	public void close() {
		this.pool.shutdown();
	}

}

/**
 * A virtual thread per task, found reflectively so the library still compiles for and runs on
 * Java 17.
 */
final class VirtualThreadExecutor implements ServerExecutor {

	private static final System.Logger logger = System.getLogger(ServerExecutor.class.getName());

	private final ExecutorService executor;

	private final Semaphore permits;

	private final int maxConcurrentCalls;

	/**
	 * Permits taken by hand-overs beyond the bound: the next tasks to end keep theirs instead
	 * of releasing them, so the bound is exceeded only while a hand-over's giver ends.
	 */
	private final AtomicInteger owed = new AtomicInteger();

	private VirtualThreadExecutor(ExecutorService executor, int maxConcurrentCalls) {
		this.executor = executor;
		this.permits = new Semaphore(maxConcurrentCalls);
		this.maxConcurrentCalls = maxConcurrentCalls;
	}

	static Method factoryMethod() {
		try {
			return java.util.concurrent.Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
		}
		catch (NoSuchMethodException ex) {
			return null;
		}
	}

	static ServerExecutor create(int maxConcurrentCalls) {
		if (maxConcurrentCalls < 1) {
			throw new IllegalArgumentException("maxConcurrentCalls must be at least 1, not " + maxConcurrentCalls);
		}
		Method factory = factoryMethod();
		if (factory != null) {
			try {
				return new VirtualThreadExecutor((ExecutorService) factory.invoke(null), maxConcurrentCalls);
			}
			catch (ReflectiveOperationException ex) {
				logger.log(Level.WARNING, "Virtual threads are present but could not be started; using a bounded pool", ex);
			}
		}
		int threads = 2 * Runtime.getRuntime().availableProcessors();
		String description = "bounded pool of " + threads + " threads, queue of " + maxConcurrentCalls
				+ " (virtual threads were requested but need Java 21 or later; this is Java "
				+ Runtime.version().feature() + ")";
		logger.log(Level.WARNING, "Server handlers were configured to run on virtual threads, which need Java 21 or later; "
				+ "this JVM is Java " + Runtime.version().feature() + ", so they run on a " + description
				+ ". Run on Java 21+ or configure a bounded pool explicitly to silence this warning.");
		return new BoundedPoolExecutor(threads, maxConcurrentCalls, "rpcrdma-server-", description);
	}

	@Override
	public boolean tryExecute(Runnable task) {
		if (!this.permits.tryAcquire()) {
			return false;
		}
		return start(task);
	}

	@Override
	public boolean tryHandOver(Runnable task) {
		if (!this.permits.tryAcquire()) {
			// The calling task still holds its permit until it ends: the one to end pays.
			this.owed.incrementAndGet();
		}
		return start(task);
	}

	private boolean start(Runnable task) {
		try {
			this.executor.execute(() -> {
				try {
					task.run();
				}
				finally {
					release();
				}
			});
			return true;
		}
		catch (RejectedExecutionException ex) {
			release();
			return false;
		}
	}

	private void release() {
		int debt;
		while ((debt = this.owed.get()) > 0) {
			if (this.owed.compareAndSet(debt, debt - 1)) {
				return;
			}
		}
		this.permits.release();
	}

	@Override
	public String description() {
		return "virtual thread per call, at most " + this.maxConcurrentCalls + " at once";
	}

	@Override
	public void close() {
		this.executor.shutdown();
	}

}

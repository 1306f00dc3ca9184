package io.rpcrdma.server;

import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
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

/** A fixed pool with a bounded queue that refuses rather than blocks when full. */
final class BoundedPoolExecutor implements ServerExecutor {

	private final ThreadPoolExecutor pool;

	private final String description;

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
		// A zero-capacity queue means "hand off only to an idle worker".
		this.pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
				(queueCapacity == 0) ? new SynchronousQueue<>()
						: new ArrayBlockingQueue<>(queueCapacity),
				factory, new ThreadPoolExecutor.AbortPolicy());
		this.description = (description != null) ? description
				: "bounded pool of " + threads + " threads, queue of " + queueCapacity;
	}

	@Override
	public boolean tryExecute(Runnable task) {
		try {
			this.pool.execute(task);
			return true;
		}
		catch (RejectedExecutionException ex) {
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
		try {
			this.executor.execute(() -> {
				try {
					task.run();
				}
				finally {
					this.permits.release();
				}
			});
			return true;
		}
		catch (RejectedExecutionException ex) {
			this.permits.release();
			return false;
		}
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

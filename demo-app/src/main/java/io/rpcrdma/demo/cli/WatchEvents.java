package io.rpcrdma.demo.cli;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.rpcrdma.demo.Sizes;
import io.rpcrdma.demo.store.StoreWatcher;

/**
 * The client side of {@code watch}: the store calls it back on the client's own connection
 * (an {@code @RpcCallbackService}), and it hands each change to the {@code watch} command as
 * one line. Bounded: when nobody reads, the oldest lines are dropped and counted, never
 * memory without limit.
 */
public final class WatchEvents implements StoreWatcher {

	private final BlockingQueue<String> lines;

	private final AtomicLong dropped = new AtomicLong();

	/**
	 * @param capacity the most lines kept unread
	 */
	public WatchEvents(int capacity) {
		this.lines = new ArrayBlockingQueue<>(capacity);
	}

	@Override
	public CompletableFuture<Boolean> changed(String kind, String key, long size) {
		String line = StoreWatcher.DELETE.equals(kind) ? "deleted " + key : "put " + key + " (" + Sizes.format(size) + ")";
		while (!this.lines.offer(line)) {
			if (this.lines.poll() != null) {
				this.dropped.incrementAndGet();
			}
		}
		return CompletableFuture.completedFuture(Boolean.TRUE);
	}

	/**
	 * @param wait the longest wait
	 * @return the next change, or {@code null} if none came in time
	 * @throws InterruptedException if interrupted while waiting
	 */
	String next(Duration wait) throws InterruptedException {
		return this.lines.poll(wait.toNanos(), TimeUnit.NANOSECONDS);
	}

	/** @return lines dropped because nobody read them */
	public long dropped() {
		return this.dropped.get();
	}

}

package io.rpcrdma.client;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.rpcrdma.log.Durations;

/**
 * The calls of an {@link RpcClientPool} waiting for a connection to open, each with the
 * attempts to open one that failed while it waited: what decides when a waiting call stops
 * waiting for a server that refuses.
 * <p>
 * Not thread-safe: the pool holds its lock around every use, and completes the waiters'
 * futures outside it (a waiter's caller may call again at once).
 */
final class ConnectionWaiters {

	private final Deque<Waiter> waiters = new ArrayDeque<>();

	int size() {
		return this.waiters.size();
	}

	boolean isEmpty() {
		return this.waiters.isEmpty();
	}

	void add(Waiter waiter) {
		this.waiters.add(waiter);
	}

	void remove(Waiter waiter) {
		this.waiters.remove(waiter);
	}

	/**
	 * An attempt to open a connection failed: every waiter counts it, and those that have now
	 * sat through {@code allowed} failed attempts leave.
	 * @param allowed the failed attempts a waiting call sits through
	 * @return the waiters that leave, to fail with {@link ServerUnreachableException}
	 */
	List<Waiter> attemptFailed(int allowed) {
		List<Waiter> refused = List.of();
		for (Iterator<Waiter> it = this.waiters.iterator(); it.hasNext();) {
			Waiter waiter = it.next();
			if (++waiter.failures >= allowed) {
				if (refused.isEmpty()) {
					refused = new ArrayList<>();
				}
				refused.add(waiter);
				it.remove();
			}
		}
		return refused;
	}

	/** @return every waiter, in the order they came; none is left */
	List<Waiter> drain() {
		List<Waiter> all = List.copyOf(this.waiters);
		this.waiters.clear();
		return all;
	}

	/** A call waiting for a connection, and the attempts to open one that failed meanwhile. */
	static final class Waiter {

		final CompletableFuture<RpcClient> future = new CompletableFuture<>();

		final PoolCall call;

		final long since;

		/** Under the pool's lock. */
		int failures;

		Waiter(PoolCall call, long since, int failures) {
			this.call = call;
			this.since = since;
			this.failures = failures;
		}

		/**
		 * @param client the client, as named in exceptions
		 * @param endpoint the server
		 * @param now the clock's time
		 * @param last the last failed attempt's failure, or {@code null}
		 * @param consecutive the attempts that failed in a row, the last included
		 * @return why this call gives up waiting for a server that does not answer
		 */
		ServerUnreachableException unreachable(String client, String endpoint, long now, Throwable last,
				int consecutive) {
			Duration waited = Duration.ofNanos(Math.max(0, now - this.since));
			return new ServerUnreachableException(client, this.call.describe(), endpoint, consecutive,
					Durations.written(waited), (last != null) ? RetryPolicy.unwrap(last) : null);
		}

	}

}

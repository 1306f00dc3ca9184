package io.rpcrdma.client;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * An {@link RpcClientPool}'s attempts to open connections: how many are under way (a backoff
 * delay before the next counts as one), how many failed in a row (a lost connection counts as
 * one too) and why the last failed: what the reconnect delay grows with and what tells a
 * balancer the server looks unreachable. Starts attempts, now or after the backoff delay.
 * <p>
 * Not thread-safe: the pool holds its lock around every use.
 */
final class ConnectionAttempts {

	private final Object lock;

	private final RpcClientPool.Connector connector;

	private final Backoff backoff;

	private final CallTimer timer;

	private final ConnectionClosing closing;

	private final BiConsumer<RpcClient, Throwable> ended;

	private int underWay;

	private int failedInARow;

	private Throwable lastFailure;

	/**
	 * @param lock the pool's lock, held around every use and around a delayed start
	 * @param connector opens connections
	 * @param backoff the pool's reconnect delays
	 * @param timer runs the delays
	 * @param closing what the pool's close waits for, told of each attempt
	 * @param ended told how each attempt ended (a client, or a failure), without the lock
	 */
	ConnectionAttempts(Object lock, RpcClientPool.Connector connector, Backoff backoff, CallTimer timer,
			ConnectionClosing closing, BiConsumer<RpcClient, Throwable> ended) {
		this.lock = lock;
		this.connector = connector;
		this.backoff = backoff;
		this.timer = timer;
		this.closing = closing;
		this.ended = ended;
	}

	/** Starts an attempt to open a connection, whose end {@code ended} is told (which calls {@link #ended()}). */
	void start() {
		this.underWay++;
		CompletableFuture<RpcClient> attempt;
		try {
			attempt = this.connector.connect();
		}
		catch (RuntimeException ex) {
			attempt = CompletableFuture.failedFuture(ex);
		}
		this.closing.attempting(attempt.handle((client, error) -> {
			this.ended.accept(client, error);
			return null;
		}));
	}

	/**
	 * Runs {@code then} under the lock after the backoff delay for the failures so far; the
	 * wait counts as an attempt under way.
	 */
	void later(Runnable then) {
		Duration delay = this.backoff.delay(this.failedInARow);
		this.underWay++;
		this.timer.schedule(delay, () -> {
			synchronized (this.lock) {
				this.underWay--;
				then.run();
			}
		});
	}

	/** @return attempts under way, backoff delays included */
	int underWay() {
		return this.underWay;
	}

	/** An attempt {@link #start() started} ended; under the lock. */
	void ended() {
		this.underWay--;
	}

	/**
	 * An attempt failed.
	 * @param failure why
	 * @return the attempts that failed in a row, this one included
	 */
	int failed(Throwable failure) {
		this.lastFailure = failure;
		return ++this.failedInARow;
	}

	/** A connection opened: the next failure is the first in a row again. */
	void succeeded() {
		this.failedInARow = 0;
	}

	/** An open connection was lost, which the next attempt's delay counts as a failure. */
	void connectionLost() {
		this.failedInARow++;
	}

	/** @return attempts that failed, and connections lost, since the last connection opened */
	int failedInARow() {
		return this.failedInARow;
	}

	/** @return why the last failed attempt failed, or {@code null} if none ever did */
	Throwable lastFailure() {
		return this.lastFailure;
	}

}

package io.rpcrdma.client;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.transport.CreditWindow;
import io.rpcrdma.transport.RpcRdmaClientConnection;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.transport.TransportStats;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * Several {@link RpcClient} connections to one server endpoint.
 *
 * <ul>
 * <li>Keeps at least {@code minConnections} open and opens up to {@code maxConnections} when
 * every open one has used all its credits.</li>
 * <li>Each call goes to the open connection with the most free credits (its
 * {@link CreditWindow} limit less what is outstanding).</li>
 * <li>A lost connection is replaced after a {@link Backoff} delay (exponential with jitter),
 * which grows with consecutive failed attempts and resets on success.</li>
 * <li>When no connection is open, at most {@code maxWaiting} calls wait for one; more fail at
 * once with {@link PoolExhaustedException}, and so does a waiting call whose deadline passes.</li>
 * <li>An idempotent call whose connection is lost is retried on another connection by the
 * {@link RetryPolicy}, within the call's deadline.</li>
 * </ul>
 */
public final class RpcClientPool implements RpcCaller, AutoCloseable {

	private final String endpoint;

	private final Connector connector;

	private final Config config;

	private final CallTimer timer;

	private final List<RpcClient> open = new ArrayList<>();

	private final Deque<CompletableFuture<RpcClient>> waiters = new ArrayDeque<>();

	private int connecting;

	private int failedAttempts;

	private Throwable lastFailure;

	private boolean closed;

	/** What lost connections conveyed, so the pool's totals never go backwards. */
	private TransportStats retired = TransportStats.ZERO;

	private final LongAdder retries = new LongAdder();

	private final Runnable countRetry = this.retries::increment;

	/**
	 * Opens a connection to the endpoint.
	 */
	@FunctionalInterface
	public interface Connector {

		/** @return completes with a connected client */
		CompletableFuture<RpcClient> connect();

	}

	/**
	 * A pool's settings.
	 * @param minConnections connections kept open (at least 1)
	 * @param maxConnections the most connections
	 * @param maxWaiting the most calls waiting for a connection
	 * @param reconnect delays between connection attempts
	 * @param retry which failed calls are retried
	 */
	public record Config(int minConnections, int maxConnections, int maxWaiting, Backoff reconnect, RetryPolicy retry) {

		/** Validates. */
		public Config {
			if (minConnections < 1 || maxConnections < minConnections || maxWaiting < 0) {
				throw new IllegalArgumentException("Need 1 <= minConnections <= maxConnections and maxWaiting >= 0, got "
						+ minConnections + ", " + maxConnections + ", " + maxWaiting);
			}
			Objects.requireNonNull(reconnect, "reconnect");
			Objects.requireNonNull(retry, "retry");
		}

		/**
		 * @param min connections kept open
		 * @param max the most connections
		 * @return 64 waiting calls, reconnecting after 10 ms growing to 5 s, 3 attempts per
		 * idempotent call
		 */
		public static Config of(int min, int max) {
			Backoff backoff = Backoff.exponential(Duration.ofMillis(10), Duration.ofSeconds(5));
			return new Config(min, max, 64, backoff, new RetryPolicy(3, backoff));
		}

	}

	/**
	 * @param endpoint the server, named in exceptions
	 * @param connector opens connections
	 * @param config the settings
	 * @param timer runs deadlines and reconnect delays
	 */
	public RpcClientPool(String endpoint, Connector connector, Config config, CallTimer timer) {
		this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
		this.connector = Objects.requireNonNull(connector, "connector");
		this.config = Objects.requireNonNull(config, "config");
		this.timer = Objects.requireNonNull(timer, "timer");
		synchronized (this) {
			fillToMinimum();
		}
	}

	/**
	 * A pool of RPC-over-RDMA connections.
	 * @param provider the RDMA provider
	 * @param pool registered memory
	 * @param address the server
	 * @param transport the transport settings
	 * @param maxPendingPerConnection the most calls awaiting replies on one connection
	 * @param config the pool settings
	 * @return the pool; connections open in the background
	 */
	public static RpcClientPool connect(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress address,
			TransportConfig transport, int maxPendingPerConnection, Config config) {
		return new RpcClientPool(address.toString(),
				() -> RpcClient.connect(provider, pool, address, transport, maxPendingPerConnection), config,
				CallTimer.shared());
	}

	/**
	 * Calls a procedure whose call and reply fit inline.
	 * @param program the program
	 * @param version its version
	 * @param procedure the procedure
	 * @param arguments writes the arguments
	 * @param idempotent whether the call may be retried on another connection if its connection is lost
	 * @param timeout the deadline for the whole call, retries included
	 * @return completes with the reply (release it after decoding), or the last failure
	 */
	public CompletableFuture<ReceivedReply> call(int program, int version, int procedure, CallBody arguments,
			boolean idempotent, Duration timeout) {
		return call(program, version, procedure, arguments, CallShape.of(RpcClient.DEFAULT_MAX_CALL_SIZE, 0),
				idempotent, timeout);
	}

	/**
	 * Calls a procedure, with bulk data moved by RDMA as {@code shape} says.
	 * @param program the program
	 * @param version its version
	 * @param procedure the procedure
	 * @param arguments writes the arguments (again for each retry)
	 * @param shape DDP-eligible argument items, Write chunks to offer, size limits
	 * @param idempotent whether the call may be retried on another connection if its connection is lost
	 * @param timeout the deadline for the whole call, retries included
	 * @return completes with the reply (release it after decoding), or the last failure
	 */
	@Override
	public CompletableFuture<ReceivedReply> call(int program, int version, int procedure, CallBody arguments,
			CallShape shape, boolean idempotent, Duration timeout) {
		Objects.requireNonNull(shape, "shape");
		return this.config.retry().execute((remaining) -> {
			long start = System.nanoTime();
			return acquire(remaining).thenCompose((client) -> {
				Duration left = remaining.minusNanos(System.nanoTime() - start);
				return client.call(program, version, procedure, arguments, shape,
						left.isNegative() ? Duration.ofMillis(1) : left);
			});
		}, idempotent, timeout, this.timer, System::nanoTime, this.countRetry);
	}

	private CompletableFuture<RpcClient> acquire(Duration wait) {
		CompletableFuture<RpcClient> waiter;
		synchronized (this) {
			if (this.closed) {
				return CompletableFuture.failedFuture(new PoolExhaustedException("The pool for " + this.endpoint + " is closed"));
			}
			RpcClient best = null;
			long bestFree = Long.MIN_VALUE;
			for (RpcClient client : this.open) {
				long free = freeCredits(client);
				if (client.isOpen() && free > bestFree) {
					best = client;
					bestFree = free;
				}
			}
			if (best != null) {
				if (bestFree <= 0 && this.open.size() + this.connecting < this.config.maxConnections()) {
					startConnecting();
				}
				return CompletableFuture.completedFuture(best);
			}
			if (this.waiters.size() >= this.config.maxWaiting()) {
				return CompletableFuture.failedFuture(new PoolExhaustedException("No connection to " + this.endpoint
						+ " is open and " + this.waiters.size() + " calls already wait for one"));
			}
			if (this.connecting == 0) {
				startConnecting();
			}
			waiter = new CompletableFuture<>();
			this.waiters.add(waiter);
		}
		CallTimer.Timeout timeout = this.timer.schedule(wait, () -> {
			synchronized (this) {
				this.waiters.remove(waiter);
			}
			waiter.completeExceptionally(new PoolExhaustedException(
					"No connection to " + this.endpoint + " opened within " + wait));
		});
		waiter.whenComplete((client, error) -> timeout.cancel());
		return waiter;
	}

	private static long freeCredits(RpcClient client) {
		if (client.transport() instanceof RpcRdmaClientConnection connection) {
			CreditWindow credits = connection.credits();
			return (long) credits.limit() - credits.outstanding();
		}
		return -client.pendingCalls();
	}

	/** Under the lock. */
	private void fillToMinimum() {
		while (!this.closed && this.open.size() + this.connecting < this.config.minConnections()) {
			startConnecting();
		}
	}

	/** Under the lock. */
	private void startConnecting() {
		this.connecting++;
		CompletableFuture<RpcClient> attempt;
		try {
			attempt = this.connector.connect();
		}
		catch (RuntimeException ex) {
			attempt = CompletableFuture.failedFuture(ex);
		}
		attempt.whenComplete(this::connected);
	}

	private void connected(RpcClient client, Throwable error) {
		List<CompletableFuture<RpcClient>> ready = new ArrayList<>();
		boolean closeIt = false;
		synchronized (this) {
			this.connecting--;
			if (error != null) {
				this.failedAttempts++;
				this.lastFailure = error;
				if (!this.closed && (!this.waiters.isEmpty() || this.open.size() < this.config.minConnections())) {
					Duration delay = this.config.reconnect().delay(this.failedAttempts);
					this.connecting++;
					this.timer.schedule(delay, () -> {
						synchronized (this) {
							this.connecting--;
							if (!this.closed) {
								startConnecting();
							}
						}
					});
				}
				return;
			}
			if (this.closed) {
				closeIt = true;
			}
			else {
				this.failedAttempts = 0;
				this.open.add(client);
				ready.addAll(this.waiters);
				this.waiters.clear();
			}
		}
		if (closeIt) {
			client.close();
			return;
		}
		client.closeFuture().whenComplete((ignored, failure) -> lost(client));
		for (CompletableFuture<RpcClient> waiter : ready) {
			waiter.complete(client);
		}
	}

	private void lost(RpcClient client) {
		synchronized (this) {
			if (!this.open.remove(client)) {
				return;
			}
			this.retired = this.retired.plus(client.transport().stats());
			if (this.closed) {
				return;
			}
			if (this.open.size() + this.connecting < this.config.minConnections()) {
				this.failedAttempts++;
				Duration delay = this.config.reconnect().delay(this.failedAttempts);
				this.connecting++;
				this.timer.schedule(delay, () -> {
					synchronized (this) {
						this.connecting--;
						fillToMinimum();
					}
				});
			}
		}
	}

	/** @return the open connections */
	public synchronized List<RpcClient> connections() {
		return List.copyOf(this.open);
	}

	/**
	 * @return connection attempts that failed, and connections lost, since the last connection
	 * was opened (0 while all is well); what the reconnect delay grows with
	 */
	public synchronized int consecutiveFailures() {
		return this.failedAttempts;
	}

	/** @return why the last failed connection attempt failed, if one ever did */
	public synchronized Optional<Throwable> lastFailure() {
		return Optional.ofNullable(this.lastFailure);
	}

	/** @return the calls sent again on another connection so far (idempotent calls only) */
	public long retries() {
		return this.retries.sum();
	}

	/** @return what every connection of the pool conveyed so far, lost ones included */
	public synchronized TransportStats transportStats() {
		TransportStats total = this.retired;
		for (RpcClient client : this.open) {
			total = total.plus(client.transport().stats());
		}
		return total;
	}

	/** @return the server, as named in exceptions */
	@Override
	public String endpoint() {
		return this.endpoint;
	}

	/** Closes every connection; waiting calls fail with {@link PoolExhaustedException}. */
	@Override
	public void close() {
		List<RpcClient> clients;
		List<CompletableFuture<RpcClient>> waiting;
		synchronized (this) {
			this.closed = true;
			clients = List.copyOf(this.open);
			this.open.clear();
			waiting = List.copyOf(this.waiters);
			this.waiters.clear();
		}
		for (CompletableFuture<RpcClient> waiter : waiting) {
			waiter.completeExceptionally(new PoolExhaustedException("The pool for " + this.endpoint + " was closed"));
		}
		for (RpcClient client : clients) {
			client.close();
		}
		synchronized (this) {
			for (RpcClient client : clients) {
				this.retired = this.retired.plus(client.transport().stats());
			}
		}
	}

}

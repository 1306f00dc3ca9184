package io.rpcrdma.client;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;


import io.rpcrdma.log.Durations;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.transport.CreditWindow;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.transport.TransportStats;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * Several {@link RpcClient} connections to one server endpoint.
 *
 * <ul>
 * <li>Keeps at least {@code minConnections} open and opens up to {@code maxConnections} when
 * every open one carries {@code callsPerConnection} calls or has used all its credits
 * ({@link ConnectionGrowth}).</li>
 * <li>Each call goes to the open connection carrying the fewest calls among those with a
 * credit free (its {@link CreditWindow} limit less what is outstanding), the most free credits
 * of equals.</li>
 * <li>A lost connection is replaced after a {@link Backoff} delay (exponential with jitter),
 * which grows with consecutive failed attempts and resets on success.</li>
 * <li>When no connection is open, at most {@code maxWaiting} calls wait for one; more fail at
 * once with {@link PoolExhaustedException}, and so does a waiting call whose deadline passes.</li>
 * <li>A waiting call fails with {@link ServerUnreachableException} (the last attempt's failure
 * its cause) as soon as as many attempts to open a connection have failed while it waited as
 * the {@link RetryPolicy} allows a call attempts (one with {@code failWaitersOnConnectFailure}):
 * a port that refuses fails the call in milliseconds rather than at its deadline. A call that
 * comes while the pool is failing to connect counts the last failed attempt as its first.</li>
 * <li>An idempotent call whose connection is lost is retried on another connection by the
 * {@link RetryPolicy}, within the call's deadline.</li>
 * <li>A connection above {@code minConnections} that has carried no call for
 * {@code idleTimeout} is closed, never while a call is on it.</li>
 * <li>What protects calls per connection ({@link #protectConnections}, an RPCSEC_GSS client
 * whose context the server binds to the connection) wraps each connection as it opens and is
 * closed before it.</li>
 * </ul>
 */
public final class RpcClientPool implements RpcCaller, AutoCloseable {

	private final String endpoint;

	/** The client, as named in messages: "client 'greeter'", or the pool's endpoint. */
	private final String client;

	private final Config config;

	private final CallTimer timer;

	private final List<RpcClient> open = new ArrayList<>();

	private final ConnectionWaiters waiters = new ConnectionWaiters();

	private final ConnectionAttempts attempts;

	private final ConnectionGrowth growth;

	private boolean closed;

	/** Calls on each open connection and when it last finished one, under the lock. */
	private final ConnectionUsage usage = new ConnectionUsage();

	private final LongSupplier clock;

	private final IdleSweep sweep;

	private final LongAdder retries = new LongAdder();

	/** Calls ready for reuse. */
	private final PoolCalls free = new PoolCalls(this);

	/** Connection attempts under way and opened connections' buffers, that {@link #close()} waits for. */
	private final ConnectionClosing closing = new ConnectionClosing();

	/**
	 * The longest {@link #close()} waits, after closing the connections, for their flushed
	 * receives to come back to the memory pool.
	 */
	public static final Duration RELEASE_WAIT = Duration.ofSeconds(2);

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
	 * @param idleTimeout how long a connection above {@code minConnections} may carry no call
	 * before it is closed; {@link Duration#ZERO} keeps every connection
	 * @param failWaitersOnConnectFailure whether the calls waiting for a connection fail with
	 * {@link ServerUnreachableException} (they never left) as soon as one attempt to open one
	 * fails, rather than after as many failed attempts as {@code retry} allows a call: for a
	 * pool under a balanced caller with other servers to go to
	 * @param unansweredTimeouts calls timing out in a row on a connection, with no reply in
	 * between, after which the pool closes that connection and opens another (see
	 * {@link RpcClient#closeWhenUnanswered}); 0 never
	 * @param callsPerConnection calls at once on every open connection at which the pool opens
	 * another (up to {@code maxConnections}); 1 gives each concurrent caller a connection
	 */
	public record Config(int minConnections, int maxConnections, int maxWaiting, Backoff reconnect, RetryPolicy retry,
			Duration idleTimeout, boolean failWaitersOnConnectFailure, int unansweredTimeouts, int callsPerConnection) {

		/** The default idle timeout. */
		public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);

		/** The default {@link #unansweredTimeouts()}: 3, as the classic RPC clients' three tries. */
		public static final int DEFAULT_UNANSWERED_TIMEOUTS = 3;

		/** The default {@link #maxConnections()} of the Spring starter's clients and the benchmarks' pools. */
		public static final int DEFAULT_MAX_CONNECTIONS = 4;

		/**
		 * The default {@link #callsPerConnection()}: a connection per concurrent caller, up to
		 * the maximum (docs/performance.md, "Connections for concurrent callers").
		 */
		public static final int DEFAULT_CALLS_PER_CONNECTION = 1;

		/** Validates. */
		public Config {
			if (minConnections < 1 || maxConnections < minConnections || maxWaiting < 0) {
				throw new IllegalArgumentException("Need 1 <= minConnections <= maxConnections and maxWaiting >= 0, got "
						+ minConnections + ", " + maxConnections + ", " + maxWaiting);
			}
			Objects.requireNonNull(reconnect, "reconnect");
			Objects.requireNonNull(retry, "retry");
			Objects.requireNonNull(idleTimeout, "idleTimeout");
			if (idleTimeout.isNegative()) {
				throw new IllegalArgumentException("idleTimeout must be zero (never evict) or positive, got "
						+ Durations.written(idleTimeout));
			}
			if (unansweredTimeouts < 0) {
				throw new IllegalArgumentException("unansweredTimeouts must be 0 (never) or more, got " + unansweredTimeouts);
			}
			if (callsPerConnection < 1) {
				throw new IllegalArgumentException("callsPerConnection must be 1 or more, got " + callsPerConnection);
			}
		}

		/**
		 * Settings whose waiting calls wait through failed connection attempts.
		 * @param minConnections connections kept open
		 * @param maxConnections the most connections
		 * @param maxWaiting the most calls waiting for a connection
		 * @param reconnect delays between connection attempts
		 * @param retry which failed calls are retried
		 * @param idleTimeout how long a connection above the minimum may stay idle
		 */
		public Config(int minConnections, int maxConnections, int maxWaiting, Backoff reconnect, RetryPolicy retry,
				Duration idleTimeout) {
			this(minConnections, maxConnections, maxWaiting, reconnect, retry, idleTimeout, false,
					DEFAULT_UNANSWERED_TIMEOUTS, DEFAULT_CALLS_PER_CONNECTION);
		}

		/**
		 * Settings with the default idle timeout of 60 s.
		 * @param minConnections connections kept open
		 * @param maxConnections the most connections
		 * @param maxWaiting the most calls waiting for a connection
		 * @param reconnect delays between connection attempts
		 * @param retry which failed calls are retried
		 */
		public Config(int minConnections, int maxConnections, int maxWaiting, Backoff reconnect, RetryPolicy retry) {
			this(minConnections, maxConnections, maxWaiting, reconnect, retry, DEFAULT_IDLE_TIMEOUT);
		}

		/**
		 * @param timeout how long a connection above the minimum may stay idle; zero never
		 * @return a copy with that idle timeout
		 */
		public Config withIdleTimeout(Duration timeout) {
			return new Config(this.minConnections, this.maxConnections, this.maxWaiting, this.reconnect, this.retry,
					timeout, this.failWaitersOnConnectFailure, this.unansweredTimeouts, this.callsPerConnection);
		}

		/**
		 * @param value whether waiting calls fail as soon as a connection attempt fails
		 * @return a copy with it
		 */
		public Config withFailWaitersOnConnectFailure(boolean value) {
			return new Config(this.minConnections, this.maxConnections, this.maxWaiting, this.reconnect, this.retry,
					this.idleTimeout, value, this.unansweredTimeouts, this.callsPerConnection);
		}

		/**
		 * @param value calls timing out in a row after which a connection is replaced; 0 never
		 * @return a copy with it
		 */
		public Config withUnansweredTimeouts(int value) {
			return new Config(this.minConnections, this.maxConnections, this.maxWaiting, this.reconnect, this.retry,
					this.idleTimeout, this.failWaitersOnConnectFailure, value, this.callsPerConnection);
		}

		/**
		 * @param value calls at once on every open connection at which another opens; at least 1
		 * @return a copy with it
		 */
		public Config withCallsPerConnection(int value) {
			return new Config(this.minConnections, this.maxConnections, this.maxWaiting, this.reconnect, this.retry,
					this.idleTimeout, this.failWaitersOnConnectFailure, this.unansweredTimeouts, value);
		}

		/**
		 * @param min connections kept open
		 * @param max the most connections
		 * @return 64 waiting calls, reconnecting after 10 ms growing to 5 s, 3 attempts per
		 * idempotent call, idle connections above the minimum closed after 60 s
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
		this(endpoint, connector, config, timer, System::nanoTime);
	}

	/**
	 * @param client what the application calls this client ("greeter"), named in exceptions
	 * @param endpoint the server, named in exceptions
	 * @param connector opens connections
	 * @param config the settings
	 * @param timer runs deadlines and reconnect delays
	 */
	public RpcClientPool(String client, String endpoint, Connector connector, Config config, CallTimer timer) {
		this(client, endpoint, connector, config, timer, System::nanoTime);
	}

	/**
	 * @param endpoint the server, named in exceptions
	 * @param connector opens connections
	 * @param config the settings
	 * @param timer runs deadlines, reconnect delays and idle sweeps
	 * @param clock the time in nanoseconds that idle times are measured with
	 */
	RpcClientPool(String endpoint, Connector connector, Config config, CallTimer timer, LongSupplier clock) {
		this(null, endpoint, connector, config, timer, clock);
	}

	RpcClientPool(String client, String endpoint, Connector connector, Config config, CallTimer timer,
			LongSupplier clock) {
		this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
		this.client = (client != null) ? "client '" + client + "'" : "the client pool for " + endpoint;
		this.config = Objects.requireNonNull(config, "config");
		this.timer = Objects.requireNonNull(timer, "timer");
		this.clock = Objects.requireNonNull(clock, "clock");
		this.sweep = new IdleSweep(timer, config.idleTimeout(), this::sweep);
		this.attempts = new ConnectionAttempts(this, Objects.requireNonNull(connector, "connector"), config.reconnect(),
				timer, this.closing, this::connected);
		this.growth = new ConnectionGrowth(config, this.usage, this.attempts, this.open, () -> this.closed);
		synchronized (this) {
			fillToMinimum();
			this.sweep.schedule();
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
		return connect(null, provider, pool, address, transport, maxPendingPerConnection, config);
	}

	/**
	 * A pool of RPC-over-RDMA connections, named in exceptions.
	 * @param client what the application calls this client ("greeter"); {@code null} for none
	 * @param provider the RDMA provider
	 * @param pool registered memory
	 * @param address the server
	 * @param transport the transport settings
	 * @param maxPendingPerConnection the most calls awaiting replies on one connection
	 * @param config the pool settings
	 * @return the pool; connections open in the background
	 */
	public static RpcClientPool connect(String client, RdmaProvider provider, RegisteredMemoryPool pool,
			InetSocketAddress address, TransportConfig transport, int maxPendingPerConnection, Config config) {
		return new RpcClientPool(client, address.toString(),
				() -> RpcClient.connect(provider, pool, address, transport, maxPendingPerConnection), config,
				CallTimer.shared(), System::nanoTime);
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
		return call(program, version, procedure, arguments, CallChunks.of(RpcClient.DEFAULT_MAX_CALL_SIZE, 0),
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
			CallChunks shape, boolean idempotent, Duration timeout) {
		FutureReply future = new FutureReply();
		call(program, version, procedure, arguments, shape, idempotent, timeout, future);
		return future;
	}

	/**
	 * Calls a procedure, telling {@code callback} how it ends: on the best open connection at
	 * once when there is one, else once one opens; an idempotent call whose connection is lost
	 * is sent again on another as the {@link Config#retry() retry policy} allows. With a
	 * connection open, the pool's part of a call allocates nothing.
	 */
	@Override
	public void call(int program, int version, int procedure, CallBody arguments, CallChunks shape, boolean idempotent,
			Duration timeout, ReplyCallback callback) {
		Objects.requireNonNull(callback, "callback");
		if (arguments == null || shape == null || timeout == null) {
			callback.failed(new NullPointerException((arguments == null) ? "arguments" : (shape == null) ? "shape" : "timeout"));
			return;
		}
		PoolCall call = this.free.take();
		call.start(program, version, procedure, arguments, shape, idempotent, timeout, callback);
	}

	/** A call passed its outcome on: kept for the next. */
	void recycle(PoolCall call) {
		this.free.give(call);
	}

	RetryPolicy retryPolicy() {
		return this.config.retry();
	}

	CallTimer timer() {
		return this.timer;
	}

	void countRetry() {
		this.retries.increment();
	}

	/**
	 * The open connection carrying the fewest calls (see {@link ConnectionUsage#leastCrowded}),
	 * marked busy, or {@code null} if none is open (or the pool is closed); opens another when
	 * even that one carries {@code callsPerConnection} calls or has used its credits.
	 */
	synchronized RpcClient acquireNow() {
		if (this.closed) {
			return null;
		}
		RpcClient best = this.usage.leastCrowded(this.open);
		if (best != null) {
			this.growth.beforeCall(best);
			this.usage.busy(best);
		}
		return best;
	}

	/**
	 * A connection for {@code call}, now or once one opens; fails with
	 * {@link ServerUnreachableException} once the attempts to open one that failed while it
	 * waited reach the retry policy's attempts, or with {@link PoolExhaustedException} when no
	 * room is left to wait, the pool is closed, or {@code wait} passes first.
	 */
	CompletableFuture<RpcClient> acquire(Duration wait, PoolCall call) {
		ConnectionWaiters.Waiter waiter;
		synchronized (this) {
			if (this.closed) {
				return CompletableFuture.failedFuture(refused(call, "the pool for " + this.endpoint + " is closed"));
			}
			RpcClient best = acquireNow();
			if (best != null) {
				return CompletableFuture.completedFuture(best);
			}
			if (this.waiters.size() >= this.config.maxWaiting()) {
				return CompletableFuture.failedFuture(refused(call, "no connection to " + this.endpoint
						+ " is open and " + this.waiters.size() + " calls already wait for one"));
			}
			// A call that comes while the pool is failing to connect counts the last failure as
			// its first attempt, as gRPC fails calls at once in TRANSIENT_FAILURE.
			waiter = new ConnectionWaiters.Waiter(call, this.clock.getAsLong(), isUnreachable() ? 1 : 0);
			if (waiter.failures >= failuresAllowed()) {
				return CompletableFuture.failedFuture(unreachable(waiter, this.attempts.lastFailure(),
						this.attempts.failedInARow()));
			}
			if (this.attempts.underWay() == 0) {
				this.attempts.start();
			}
			this.waiters.add(waiter);
		}
		CallTimer.Timeout timeout = this.timer.schedule(wait, () -> {
			Throwable last;
			int failures;
			int consecutive;
			synchronized (this) {
				this.waiters.remove(waiter);
				last = this.attempts.lastFailure();
				failures = waiter.failures;
				consecutive = this.attempts.failedInARow();
			}
			waiter.future.completeExceptionally((failures > 0) ? unreachable(waiter, last, consecutive)
					: refused(call, "no connection to " + this.endpoint + " opened within " + Durations.written(wait)
							+ " (an attempt is still under way)"));
		});
		waiter.future.whenComplete((client, error) -> timeout.cancel());
		return waiter.future;
	}

	private PoolExhaustedException refused(PoolCall call, String why) {
		return PoolExhaustedException.notSent(call.describe(), this.client, this.endpoint, why);
	}

	/** How many failed connection attempts a waiting call sits through: the attempts a call has. */
	private int failuresAllowed() {
		return this.config.failWaitersOnConnectFailure() ? 1 : this.config.retry().maxAttempts();
	}

	/** @param consecutive the attempts that failed in a row, the last included */
	private ServerUnreachableException unreachable(ConnectionWaiters.Waiter waiter, Throwable last, int consecutive) {
		return waiter.unreachable(this.client, this.endpoint, this.clock.getAsLong(), last, consecutive);
	}

	/** Under the lock. */
	private void fillToMinimum() {
		while (!this.closed && this.open.size() + this.attempts.underWay() < this.config.minConnections()) {
			this.attempts.start();
		}
	}

	private void connected(RpcClient client, Throwable error) {
		List<CompletableFuture<RpcClient>> ready = new ArrayList<>();
		List<ConnectionWaiters.Waiter> refused = List.of();
		int consecutive = 0;
		boolean closeIt = false;
		synchronized (this) {
			this.attempts.ended();
			if (error != null) {
				consecutive = this.attempts.failed(error);
				// Completed outside the lock below: a waiter's caller may call again at once.
				refused = this.waiters.attemptFailed(failuresAllowed());
				if (!this.closed && (!this.waiters.isEmpty() || this.open.size() < this.config.minConnections())) {
					this.attempts.later(() -> {
						if (!this.closed) {
							this.attempts.start();
						}
					});
				}
			}
			else if (this.closed) {
				closeIt = true;
			}
			else {
				this.attempts.succeeded();
				client.closeWhenUnanswered(this.config.unansweredTimeouts());
				this.open.add(client);
				this.usage.opened(client, this.clock.getAsLong());
				for (ConnectionWaiters.Waiter waiter : this.waiters.drain()) {
					// Busy before the lock is let go, so that no sweep closes it under the waiter.
					this.usage.busy(client);
					ready.add(waiter.future);
				}
			}
		}
		if (error != null) {
			for (ConnectionWaiters.Waiter waiter : refused) {
				waiter.future.completeExceptionally(unreachable(waiter, error, consecutive));
			}
			return;
		}
		this.closing.opened(client);
		if (closeIt) {
			client.close();
			return;
		}
		client.closeFuture().whenComplete((ignored, failure) -> lost(client));
		for (CompletableFuture<RpcClient> waiter : ready) {
			if (!waiter.complete(client)) {
				// The waiter's deadline passed first: it will not call.
				finished(client);
			}
		}
	}

	/** A connection was lost: it leaves the pool, which opens another if below its minimum. */
	private void lost(RpcClient client) {
		RpcCaller front;
		synchronized (this) {
			front = this.usage.remove(client);
			if (this.open.remove(client)) {
				this.usage.retire(client);
				if (!this.closed && this.open.size() + this.attempts.underWay() < this.config.minConnections()) {
					this.attempts.connectionLost();
					this.attempts.later(this::fillToMinimum);
				}
			}
		}
		if (front instanceof ConnectionProtection) {
			// Outside the lock: its calls fail with the connection, and what protected it has
			// nothing left to undo but its own state (a destroy on a lost connection fails at once).
			ConnectionClosing.closeProtected(front, client);
		}
	}

	/** A call on {@code client} finished, well or not; {@code null} for none. */
	synchronized void finished(RpcClient client) {
		if (client == null) {
			return;
		}
		this.usage.finished(client, this.clock.getAsLong());
	}

	/**
	 * Closes connections above the minimum that have been idle for the idle timeout, the
	 * longest idle first, and only those with no call on them.
	 */
	private void sweep() {
		List<RpcCaller> fronts = new ArrayList<>();
		List<RpcClient> evicted;
		synchronized (this) {
			if (this.closed) {
				return;
			}
			evicted = this.usage.evictIdle(this.open, this.config.minConnections(), this.clock.getAsLong(),
					this.config.idleTimeout().toNanos(), fronts);
			this.sweep.schedule();
		}
		for (int i = 0; i < evicted.size(); i++) {
			ConnectionClosing.closeProtected(fronts.get(i), evicted.get(i));
		}
	}

	/**
	 * Sends every call through what {@code protection} makes of its connection, made once per
	 * connection as it opens (now, for those already open) and closed, when
	 * {@link AutoCloseable}, before its connection: for RPCSEC_GSS, whose contexts a server
	 * binds to the connection they were created on, an
	 * {@link io.rpcrdma.client.security.RpcSecGssClient} per connection. Set it before the
	 * first call.
	 * @param protection makes a connection's protected caller from the connection
	 * @return this pool
	 * @throws IllegalStateException if the pool's connections are protected already
	 */
	public RpcClientPool protectConnections(UnaryOperator<RpcCaller> protection) {
		Objects.requireNonNull(protection, "protection");
		synchronized (this) {
			if (!this.usage.protectAll(this.open, protection)) {
				throw new IllegalStateException("The connections of the pool for " + this.endpoint
						+ " are protected already");
			}
		}
		return this;
	}

	/**
	 * What a call on {@code client} goes through: the connection itself, or what protects it.
	 * Allocates nothing; takes the lock only when connections are protected.
	 */
	RpcCaller callerOf(RpcClient client) {
		if (!this.usage.isProtected()) {
			return client;
		}
		synchronized (this) {
			RpcCaller front = this.usage.front(client);
			return (front != null) ? front : client;
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
		return this.attempts.failedInARow();
	}

	/**
	 * Whether a call would wait for a connection that is failing to open: none is open, the
	 * pool is not closed, and the last attempt to open one failed or the last open one was
	 * lost. What a balancer over several pools asks before it sends a call here, so that it
	 * can send the call to another server instead of waiting for this one.
	 * @return whether the endpoint looks unreachable now
	 */
	public synchronized boolean isUnreachable() {
		return !this.closed && this.open.isEmpty() && this.attempts.failedInARow() > 0;
	}

	/** @return why the last failed connection attempt failed, if one ever did */
	public synchronized Optional<Throwable> lastFailure() {
		return Optional.ofNullable(this.attempts.lastFailure());
	}

	/** @return the calls sent again on another connection so far (idempotent calls only) */
	public long retries() {
		return this.retries.sum();
	}

	/** @return what every connection of the pool conveyed so far, lost ones included */
	public synchronized TransportStats transportStats() {
		return this.usage.conveyed(this.open);
	}

	/** @return the pool's settings */
	public Config config() {
		return this.config;
	}

	/** @return the server, as named in exceptions */
	@Override
	public String endpoint() {
		return this.endpoint;
	}

	/**
	 * Closes every connection (undoing what protects each first), and returns once their
	 * buffers are back in the memory pool (at most {@link #RELEASE_WAIT} later); waiting calls
	 * fail with {@link PoolExhaustedException}.
	 */
	@Override
	public void close() {
		List<RpcClient> clients;
		List<ConnectionWaiters.Waiter> waiting;
		List<CompletableFuture<Void>> protections;
		synchronized (this) {
			this.closed = true;
			this.sweep.cancel();
			clients = List.copyOf(this.open);
			protections = this.usage.undoProtections(clients);
			this.open.clear();
			waiting = this.waiters.drain();
		}
		for (ConnectionWaiters.Waiter waiter : waiting) {
			waiter.future.completeExceptionally(refused(waiter.call, "the pool for " + this.endpoint + " was closed"));
		}
		CompletableFuture.allOf(protections.toArray(CompletableFuture[]::new)).join();
		for (RpcClient client : clients) {
			client.close();
		}
		// The connections' flushed receives go back to the memory pool before close returns,
		// so a pool closed right after finds them all back: those of connections still
		// opening too, which close as they open. Bounded, for an attempt that would take its
		// whole connect timeout or a provider that would never flush.
		this.closing.awaitReleased(RELEASE_WAIT);
		synchronized (this) {
			clients.forEach(this.usage::retire);
		}
	}

}

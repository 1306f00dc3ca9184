package io.rpcrdma.client.balance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.UnaryOperator;

import io.rpcrdma.client.Backoff;
import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.FutureReply;
import io.rpcrdma.client.CallChunks;
import io.rpcrdma.client.CallTimer;
import io.rpcrdma.client.PoolExhaustedException;
import io.rpcrdma.client.ReceivedReply;
import io.rpcrdma.client.ReplyCallback;
import io.rpcrdma.client.RetryPolicy;
import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.oncrpc.ProgramNumberText;

/**
 * Calls spread over the instances of a server set, one {@link RpcClientPool} each.
 *
 * <ul>
 * <li>The instances come from an {@link InstanceSource}, read on the first call (pools open
 * lazily, each on its instance's first call) and again on {@link #refresh()} or when the
 * source says it changed; the source hears of each ejection ({@link InstanceSource#ejected}),
 * so one that can look again may move or drop the instance. A removed instance takes no new call and its pool closes once its
 * calls have ended; an added one opens on first use. No call in flight is dropped.</li>
 * <li>A {@link Balancer} chooses each attempt's instance ({@link BalancerKind}).</li>
 * <li>An instance with {@link Ejection#consecutiveFailures()} connection failures in a row is
 * ejected, and comes back when a probe (a NULL call, procedure 0 of the program the failing
 * call called) is answered; probes follow the ejection's backoff. An instance whose pool has
 * no connection and failed to open one is passed over, and used only when no other is up.</li>
 * <li>A failed attempt is sent again on another instance, up to the retry policy's attempts
 * and within the call's deadline, when that cannot run it twice: an attempt that never left
 * this client (no connection, or no room on one), or an idempotent call lost with its
 * connection. A non-idempotent call lost with its connection fails with the
 * {@link io.rpcrdma.client.ConnectionLostException}, whose message says it may or may not have
 * run. With no other instance up, the same one is tried again after the retry backoff.</li>
 * <li>With no instance up, a call fails at once with {@link NoInstanceAvailableException},
 * naming every instance and its last failure: an outage is seen quickly, not a deadline
 * later.</li>
 * </ul>
 *
 * <p>With the pools' connections open, a call allocates nothing here: the call objects are
 * recycled and the balancer reads the instance array in place.
 */
public final class BalancedCaller implements RpcCaller, AutoCloseable {

	private static final Member[] NONE = new Member[0];

	private final String name;

	private final InstanceSource source;

	private final InstancePools pools;

	/** Calls go through each connection as they are. */
	public static final UnaryOperator<RpcCaller> UNPROTECTED = UnaryOperator.identity();

	private final UnaryOperator<RpcCaller> protection;

	private final Config config;

	private final Balancer balancer;

	private final CallTimer timer;

	/** The instances taking calls; {@code null} until the first call reads the source. */
	private volatile Member[] members;

	/** Under the lock: removed instances whose calls have not all ended. */
	private final Set<Member> draining = new HashSet<>();

	/** Under the lock. */
	private AutoCloseable subscription;

	/** Written under the lock; read by every call. */
	private volatile boolean closed;

	private final LongAdder failovers = new LongAdder();

	private final Object freeLock = new Object();

	/** Guarded by freeLock: calls ready for reuse. */
	private final BalancedCall[] free = new BalancedCall[64];

	private int freeCalls;

	/**
	 * A balanced caller's settings.
	 * @param balancer how an instance is chosen
	 * @param ejection when instances are taken out and probed
	 * @param retry how many attempts a call gets in all, and the delay before trying instances
	 * already tried
	 */
	public record Config(BalancerKind balancer, Ejection ejection, RetryPolicy retry) {

		/** Validates. */
		public Config {
			Objects.requireNonNull(balancer, "balancer");
			Objects.requireNonNull(ejection, "ejection");
			Objects.requireNonNull(retry, "retry");
		}

		/**
		 * @return round robin, {@link Ejection#defaults()}, 3 attempts with 10 ms growing to 5 s
		 * between rounds over the same instances
		 */
		public static Config defaults() {
			return new Config(BalancerKind.ROUND_ROBIN, Ejection.defaults(),
					new RetryPolicy(3, Backoff.exponential(Duration.ofMillis(10), Duration.ofSeconds(5))));
		}

		/**
		 * @param value how an instance is chosen
		 * @return a copy with it
		 */
		public Config withBalancer(BalancerKind value) {
			return new Config(value, this.ejection, this.retry);
		}

		/**
		 * @param value when instances are taken out and probed
		 * @return a copy with it
		 */
		public Config withEjection(Ejection value) {
			return new Config(this.balancer, value, this.retry);
		}

		/**
		 * @param value attempts per call and the delay between rounds
		 * @return a copy with it
		 */
		public Config withRetry(RetryPolicy value) {
			return new Config(this.balancer, this.ejection, value);
		}

	}

	/**
	 * A caller whose calls go through each pool as they are, on the shared timer.
	 * @param name names the caller in messages, such as {@code rpcrdma client 'orders'}
	 * @param source the instances
	 * @param pools opens the pool to an instance
	 * @param config the settings
	 */
	public BalancedCaller(String name, InstanceSource source, InstancePools pools, Config config) {
		this(name, source, pools, UNPROTECTED, config,
				config.balancer().create(ThreadLocalRandom.current()), CallTimer.shared());
	}

	/**
	 * @param name names the caller in messages
	 * @param source the instances
	 * @param pools opens the pool to an instance
	 * @param protection wraps each connection of each pool, as it opens, in what protects its
	 * calls (an RPCSEC_GSS client, whose context the server binds to the connection;
	 * {@link RpcClientPool#protectConnections}); {@link #UNPROTECTED} for nothing
	 * @param config the settings
	 * @param balancer chooses instances, in place of the one {@code config} names (a seeded one
	 * in tests, or one of the application's)
	 * @param timer runs probes and retry delays
	 */
	public BalancedCaller(String name, InstanceSource source, InstancePools pools, UnaryOperator<RpcCaller> protection,
			Config config, Balancer balancer, CallTimer timer) {
		this.name = Objects.requireNonNull(name, "name");
		this.source = Objects.requireNonNull(source, "source");
		this.pools = Objects.requireNonNull(pools, "pools");
		this.protection = Objects.requireNonNull(protection, "protection");
		this.config = Objects.requireNonNull(config, "config");
		this.balancer = Objects.requireNonNull(balancer, "balancer");
		this.timer = Objects.requireNonNull(timer, "timer");
	}

	@Override
	public CompletableFuture<ReceivedReply> call(int program, int version, int procedure, CallBody arguments,
			CallChunks shape, boolean idempotent, Duration timeout) {
		FutureReply future = new FutureReply();
		call(program, version, procedure, arguments, shape, idempotent, timeout, future);
		return future;
	}

	@Override
	public void call(int program, int version, int procedure, CallBody arguments, CallChunks shape, boolean idempotent,
			Duration timeout, ReplyCallback callback) {
		Objects.requireNonNull(callback, "callback");
		if (arguments == null || shape == null || timeout == null) {
			callback.failed(new NullPointerException((arguments == null) ? "arguments" : (shape == null) ? "shape" : "timeout"));
			return;
		}
		BalancedCall call;
		synchronized (this.freeLock) {
			call = (this.freeCalls > 0) ? this.free[--this.freeCalls] : null;
		}
		if (call == null) {
			call = new BalancedCall(this);
		}
		call.start(program, version, procedure, arguments, shape, idempotent, timeout, callback);
	}

	/** A call passed its outcome on: kept for the next. */
	void recycle(BalancedCall call) {
		synchronized (this.freeLock) {
			if (this.freeCalls < this.free.length) {
				this.free[this.freeCalls++] = call;
			}
		}
	}

	/**
	 * @return the instances taking calls, reading the source on the first call
	 * @throws RuntimeException when the source cannot list them, or the caller is closed
	 */
	Member[] members() {
		if (this.closed) {
			throw closedException();
		}
		Member[] current = this.members;
		return (current != null) ? current : resolve();
	}

	private PoolExhaustedException closedException() {
		return new PoolExhaustedException(endpoint() + " is closed (its application is shutting down); the call was not sent");
	}

	private Member[] resolve() {
		List<Member> removed;
		synchronized (this) {
			if (this.closed) {
				throw closedException();
			}
			if (this.members != null) {
				return this.members;
			}
			removed = apply(this.source.instances());
			this.subscription = this.source.subscribe(this::refresh);
		}
		removed.forEach(Member::drain);
		return this.members;
	}

	/**
	 * Reads the source again: instances it no longer lists drain and close, new ones open on
	 * their first call, the others keep their pools and health. Before the first call there is
	 * nothing to refresh (the first call reads the source).
	 */
	public void refresh() {
		List<Member> removed;
		synchronized (this) {
			if (this.closed || this.members == null) {
				return;
			}
			removed = apply(this.source.instances());
		}
		removed.forEach(Member::drain);
	}

	/** Under the lock: publishes the new set, and returns the members to drain. */
	private List<Member> apply(List<ServerInstance> instances) {
		Objects.requireNonNull(instances, () -> "The instance source of " + this.name + " returned no list");
		Map<String, Member> previous = new HashMap<>();
		Member[] old = (this.members != null) ? this.members : NONE;
		for (Member member : old) {
			previous.put(member.instance.id(), member);
		}
		Member[] next = new Member[instances.size()];
		Set<String> ids = new HashSet<>();
		for (int i = 0; i < next.length; i++) {
			ServerInstance instance = Objects.requireNonNull(instances.get(i), "instance");
			if (!ids.add(instance.id())) {
				throw new IllegalArgumentException("The instance source of " + this.name + " lists the id '"
						+ instance.id() + "' twice; instance ids must be unique");
			}
			Member kept = previous.get(instance.id());
			// Same id at a new address: a new instance, whose pool must connect there.
			if (kept != null && kept.instance.address().equals(instance.address())) {
				previous.remove(instance.id());
				next[i] = kept;
			}
			else {
				next[i] = new Member(this, instance);
			}
		}
		List<Member> removed = new ArrayList<>(previous.values());
		this.draining.addAll(removed);
		this.members = next;
		return removed;
	}

	/** A member closed its pool. */
	synchronized void closed(Member member) {
		this.draining.remove(member);
	}

	/**
	 * @return every instance, those draining included, as they stand now; empty before the
	 * first call
	 */
	public List<InstanceStats> instanceStats() {
		List<InstanceStats> stats = new ArrayList<>();
		Member[] current = this.members;
		if (current != null) {
			for (Member member : current) {
				stats.add(member.stats());
			}
		}
		List<Member> leaving;
		synchronized (this) {
			leaving = List.copyOf(this.draining);
		}
		for (Member member : leaving) {
			stats.add(member.stats());
		}
		return stats;
	}

	/** @return the pools opened so far, by instance, those draining included */
	public Map<ServerInstance, RpcClientPool> openPools() {
		Map<ServerInstance, RpcClientPool> open = new LinkedHashMap<>();
		Member[] current = this.members;
		if (current != null) {
			for (Member member : current) {
				if (member.pool() != null) {
					open.put(member.instance, member.pool());
				}
			}
		}
		synchronized (this) {
			for (Member member : this.draining) {
				if (member.pool() != null) {
					open.put(member.instance, member.pool());
				}
			}
		}
		return open;
	}

	/** @return attempts sent again after a failed one, on another instance or the same */
	public long failovers() {
		return this.failovers.sum();
	}

	void countFailover() {
		this.failovers.increment();
	}

	NoInstanceAvailableException noInstance(CallBody arguments, int program, int version, int procedure,
			Throwable lastFailure) {
		String numbers = "program " + ProgramNumberText.hex(program) + " version " + Integer.toUnsignedString(version)
				+ " procedure " + Integer.toUnsignedString(procedure);
		String named = (arguments != null) ? arguments.procedureName() : null;
		return new NoInstanceAvailableException(this.name, (named != null) ? named + " (" + numbers + ")" : numbers,
				instanceStats(), lastFailure);
	}

	/** A member was ejected: its source may want to look again. */
	void ejected(ServerInstance instance) {
		if (this.closed) {
			return;
		}
		try {
			this.source.ejected(instance);
		}
		catch (RuntimeException ex) {
			// A source's failure to look again must not fail the call that ejected: the
			// instance is probed either way.
		}
	}

	InstancePools opener() {
		return this.pools;
	}

	UnaryOperator<RpcCaller> protection() {
		return this.protection;
	}

	Config config() {
		return this.config;
	}

	Balancer balancer() {
		return this.balancer;
	}

	CallTimer timer() {
		return this.timer;
	}

	/** @return the caller's name and its instances' ids, once read */
	@Override
	public String endpoint() {
		Member[] current = this.members;
		if (current == null) {
			return this.name;
		}
		StringBuilder named = new StringBuilder(this.name).append(" (");
		for (int i = 0; i < current.length; i++) {
			named.append((i > 0) ? ", " : "").append(current[i].instance);
		}
		return named.append(')').toString();
	}

	/**
	 * Closes every pool (what protects each first); waiting calls fail, later calls fail with
	 * {@link PoolExhaustedException}. Stops listening to the source.
	 */
	@Override
	public void close() {
		List<Member> all = new ArrayList<>();
		AutoCloseable listening;
		synchronized (this) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			Member[] current = this.members;
			if (current != null) {
				all.addAll(List.of(current));
			}
			all.addAll(this.draining);
			listening = this.subscription;
			this.subscription = null;
		}
		if (listening != null) {
			try {
				listening.close();
			}
			catch (Exception ex) {
				// The caller is closed either way; a late change finds it closed and does nothing.
			}
		}
		for (Member member : all) {
			member.close();
		}
	}

}

package io.rpcrdma.spring.boot.client;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.function.Supplier;

import io.rpcrdma.backchannel.CallbackServices;
import io.rpcrdma.client.CallTimer;
import io.rpcrdma.client.RetryPolicy;
import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.RpcClient;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.client.balance.BalancedCaller;
import io.rpcrdma.client.balance.InstancePools;
import io.rpcrdma.client.balance.InstanceSource;
import io.rpcrdma.client.balance.InstanceStats;
import io.rpcrdma.client.balance.ServerInstance;
import io.rpcrdma.discovery.rpcbind.RpcbindException;
import io.rpcrdma.discovery.rpcbind.RpcbindInstanceSource;
import io.rpcrdma.discovery.rpcbind.RpcbindResolver;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.service.ServiceClientFactory;
import io.rpcrdma.service.ServiceDescriptor;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * Creates service proxies that call through named clients ({@code rpcrdma.client.<name>}),
 * for programmatic use; {@link ImportRpcClients @ImportRpcClients} registers proxy beans
 * through it. Proxies of one client name share one {@link BalancedCaller} over its servers
 * (one connection pool each, opened on the first call that goes there), which balances,
 * ejects and fails over as {@link RpcClientSpec#balancing()} says. A client with
 * {@code rpcbind://host} addresses ({@link RpcClientSpec#rpcbinds()}) has one caller per
 * program version of its interfaces instead, since each host's rpcbind maps each program
 * version to its own port; each is found on its first call. Closing the factory closes
 * every pool; calls then fail with a {@link io.rpcrdma.client.PoolExhaustedException} saying
 * the client is closed.
 */
public class RpcClientFactory implements AutoCloseable {

	private static final System.Logger logger = System.getLogger(RpcClientFactory.class.getName());

	private final RdmaProvider provider;

	private final RegisteredMemoryPool memory;

	private final ServiceClientFactory proxies;

	private final Function<String, RpcClientSpec> specs;

	private final Supplier<Optional<InetSocketAddress>> localServer;

	private final ConcurrentMap<CallerKey, BalancedCaller> callers = new ConcurrentHashMap<>();

	private final ConcurrentMap<String, RpcClientSpec> resolved = new ConcurrentHashMap<>();

	private volatile boolean closed;

	/** What connections serve their server in the backward direction (RFC 8167), or {@code null}. */
	private volatile CallbackServices callbacks;

	/** Looks up the servers of discovery:/// clients, or {@code null} without Spring Cloud. */
	private volatile RpcClientDiscovery discovery;

	/**
	 * @param provider the RDMA provider connections are opened with
	 * @param memory registered memory for the connections
	 * @param proxies creates the proxies
	 * @param specs the settings of a client name
	 * @param localServer where this application's own server listens, for clients
	 * configured without addresses; empty when it does not listen
	 */
	public RpcClientFactory(RdmaProvider provider, RegisteredMemoryPool memory, ServiceClientFactory proxies,
			Function<String, RpcClientSpec> specs, Supplier<Optional<InetSocketAddress>> localServer) {
		this.provider = Objects.requireNonNull(provider, "provider");
		this.memory = Objects.requireNonNull(memory, "memory");
		this.proxies = Objects.requireNonNull(proxies, "proxies");
		this.specs = Objects.requireNonNull(specs, "specs");
		this.localServer = Objects.requireNonNull(localServer, "localServer");
	}

	/**
	 * Serves {@code callbacks} on every connection opened from now on (RFC 8167): the servers
	 * this application calls may call them back on the same connection.
	 * @param services the programs served, their executor and credits; {@code null} for none
	 * @return this factory
	 */
	public RpcClientFactory serving(CallbackServices services) {
		this.callbacks = services;
		return this;
	}

	/**
	 * Looks up the servers of clients whose address is {@code discovery:///<service-id>}
	 * through {@code discovery}.
	 * @param value the lookup; {@code null} when no discovery service is available
	 * @return this factory
	 */
	public RpcClientFactory discovering(RpcClientDiscovery value) {
		this.discovery = value;
		return this;
	}

	/**
	 * Creates a proxy of a service interface calling through a named client. Never returns
	 * {@code null}; connections open on the first call.
	 * @param <T> the interface
	 * @param serviceInterface an interface annotated {@link io.rpcrdma.service.RpcProgram}
	 * @param clientName the client name, configured under {@code rpcrdma.client.<name>}
	 * @return the proxy
	 * @throws io.rpcrdma.service.ServiceDefinitionException if the interface is not a valid
	 * service
	 * @throws IllegalStateException if the factory is closed, or the client's address is
	 * {@code discovery:///} and no discovery service is available
	 */
	public <T> T createClient(Class<T> serviceInterface, String clientName) {
		Objects.requireNonNull(serviceInterface, "serviceInterface");
		Objects.requireNonNull(clientName, "clientName");
		if (this.closed) {
			throw new IllegalStateException("The RpcClientFactory is closed (the application context is shutting down); "
					+ "cannot create a " + serviceInterface.getName() + " client '" + clientName + "'");
		}
		RpcClientSpec spec = spec(clientName);
		CallerKey key = spec.usesRpcbind() ? CallerKey.of(clientName, this.proxies.describe(serviceInterface))
				: new CallerKey(clientName, 0, 0, false);
		BalancedCaller caller = this.callers.computeIfAbsent(key,
				(named) -> new BalancedCaller(named.toString(), named.perProgram() ? rpcbindInstances(named, spec)
						: source(named.name(), spec), pools(spec), protection(spec.security()), spec.balancing(),
						spec.balancing().balancer().create(ThreadLocalRandom.current()), CallTimer.shared()));
		return this.proxies.create(serviceInterface, caller, spec.options());
	}

	/** What protects each connection of a client's pools: nothing, or its {@link RpcCallerSecurity}. */
	private static java.util.function.UnaryOperator<RpcCaller> protection(RpcCallerSecurity security) {
		return (security == RpcCallerSecurity.NONE) ? BalancedCaller.UNPROTECTED : security::protect;
	}

	/**
	 * Which caller a proxy calls through: one per client name, or per client name and program
	 * version for a client that finds its servers through rpcbind.
	 */
	private record CallerKey(String name, int program, int version, boolean perProgram) {

		static CallerKey of(String name, ServiceDescriptor service) {
			return new CallerKey(name, service.program(), service.version(), true);
		}

		@Override
		public String toString() {
			return "rpcrdma client '" + this.name + "'" + (this.perProgram ? " program "
					+ Integer.toUnsignedString(this.program) + " version " + Integer.toUnsignedString(this.version) : "");
		}

	}

	/**
	 * The pools opened so far, by client name; a client with several addresses has one entry
	 * per address, named {@code name[host:port]}.
	 * @return the pools, in client name order of creation
	 */
	public Map<String, RpcClientPool> pools() {
		Map<String, RpcClientPool> pools = new LinkedHashMap<>();
		Map<String, List<RpcClientPool>> byName = new LinkedHashMap<>();
		this.callers.forEach((key, caller) -> byName.computeIfAbsent(key.name(), (name) -> new ArrayList<>())
			.addAll(caller.openPools().values()));
		byName.forEach((name, open) -> {
			if (open.size() == 1) {
				pools.put(name, open.get(0));
			}
			else {
				for (RpcClientPool pool : open) {
					pools.put(name + "[" + pool.endpoint() + "]", pool);
				}
			}
		});
		return pools;
	}

	/**
	 * The settings of a client, as configuration and customizers made them.
	 * @param clientName the client name
	 * @return the settings
	 */
	public RpcClientSpec spec(String clientName) {
		return this.resolved.computeIfAbsent(clientName, this.specs);
	}

	/**
	 * Where a client learns its servers: a discovery service, checked now so that a missing
	 * integration stops the start rather than the first call; else its addresses.
	 */
	private InstanceSource source(String clientName, RpcClientSpec spec) {
		if (!spec.discovered()) {
			return instances(clientName);
		}
		RpcClientDiscovery lookup = this.discovery;
		if (lookup == null) {
			throw new IllegalStateException("rpcrdma client '" + clientName + "' has the address "
					+ RpcClientSpec.DISCOVERY_PREFIX + spec.serviceId() + " (rpcrdma.client." + clientName
					+ ".address) but the application has no Spring Cloud DiscoveryClient: add "
					+ "org.springframework.cloud:spring-cloud-commons and a discovery implementation such as "
					+ "spring-cloud-starter-zookeeper-discovery, spring-cloud-starter-consul-discovery, "
					+ "spring-cloud-starter-netflix-eureka-client or spring-cloud-starter-kubernetes-client, "
					+ "or give host:port addresses");
		}
		InstanceSource discovered = lookup.instances(clientName, spec.serviceId());
		return new InstanceSource() {

			@Override
			public List<ServerInstance> instances() {
				if (RpcClientFactory.this.closed) {
					throw new IllegalStateException("rpcrdma client '" + clientName + "' is closed: the application "
							+ "context is shutting down");
				}
				return discovered.instances();
			}

			@Override
			public AutoCloseable subscribe(Runnable onChange) {
				return discovered.subscribe(onChange);
			}

			@Override
			public void ejected(ServerInstance instance) {
				discovered.ejected(instance);
			}

		};
	}

	/**
	 * A client's servers, resolved on its first call: its own server's address is known only
	 * once that listens.
	 */
	private InstanceSource instances(String clientName) {
		return () -> {
			if (this.closed) {
				throw new IllegalStateException("rpcrdma client '" + clientName + "' is closed: the application context "
						+ "is shutting down");
			}
			RpcClientSpec spec = spec(clientName);
			if (spec.callsLocalServer()) {
				InetSocketAddress local = this.localServer.get()
					.orElseThrow(() -> new IllegalStateException("rpcrdma client '" + clientName + "' has no address and "
							+ "this application's RPC server is not listening; set rpcrdma.client." + clientName
							+ ".address=host:port"));
				return List.of(ServerInstance.of(local));
			}
			List<ServerInstance> instances = new ArrayList<>();
			for (InetSocketAddress address : spec.addresses()) {
				instances.add(ServerInstance.of(address));
			}
			return instances;
		};
	}

	/**
	 * A client's servers for one program version: its fixed addresses, then one per host whose
	 * rpcbind maps the program version. With fixed addresses, a failed lookup leaves those;
	 * without, it fails the call with what rpcbind said (the host, the program, and what the
	 * host has).
	 */
	private InstanceSource rpcbindInstances(CallerKey key, RpcClientSpec spec) {
		// rpcbind is asked over TCP, bounded as opening a connection is.
		RpcbindInstanceSource found = new RpcbindInstanceSource(spec.rpcbinds(), key.program(), key.version(),
				new RpcbindResolver(spec.transport().connectTimeout()));
		List<ServerInstance> fixed = spec.addresses().stream().map(ServerInstance::of).toList();
		return new InstanceSource() {

			@Override
			public List<ServerInstance> instances() {
				if (RpcClientFactory.this.closed) {
					throw new IllegalStateException(key + " is closed: the application context is shutting down");
				}
				if (fixed.isEmpty()) {
					return found.instances();
				}
				List<ServerInstance> all = new ArrayList<>(fixed);
				try {
					all.addAll(found.instances());
				}
				catch (RpcbindException ex) {
					logger.log(System.Logger.Level.WARNING, () -> key + " calls only its fixed addresses " + fixed
							+ " for now: " + ex.getMessage());
				}
				return all;
			}

			@Override
			public AutoCloseable subscribe(Runnable onChange) {
				return found.subscribe(onChange);
			}

			@Override
			public void ejected(ServerInstance instance) {
				found.ejected(instance);
			}

		};
	}

	/**
	 * Opens one server's pool. It retries nothing itself: the balanced caller sends a failed
	 * call again, to another server when there is one, where the pool would wait for its own.
	 */
	private InstancePools pools(RpcClientSpec spec) {
		RpcClientPool.Config settings = spec.pool();
		// With other servers to go to, a call waiting for a connection that fails to open goes
		// to one of them rather than waiting its deadline out. Without retries of its own the
		// pool fails its waiting calls at the first failed attempt for a lone server too, and
		// the balanced caller's retry policy decides whether to try again. A discovery service
		// may list several at any time.
		boolean others = spec.discovered() || spec.addresses().size() + spec.rpcbinds().size() > 1;
		RpcClientPool.Config withoutRetry = new RpcClientPool.Config(settings.minConnections(),
				settings.maxConnections(), settings.maxWaiting(), settings.reconnect(), RetryPolicy.none(),
				settings.idleTimeout(), others, settings.unansweredTimeouts(), settings.callsPerConnection());
		return (instance) -> {
			if (this.closed) {
				throw new IllegalStateException("rpcrdma client '" + spec.name() + "' is closed: the application "
						+ "context is shutting down");
			}
			CallbackServices served = this.callbacks;
			if (served == null) {
				return RpcClientPool.connect(spec.name(), this.provider, this.memory, instance.address(), spec.transport(),
						spec.maxPendingPerConnection(), withoutRetry);
			}
			return new RpcClientPool(spec.name(), instance.address().toString(),
					() -> RpcClient.connect(this.provider, this.memory, instance.address(), spec.transport(),
							spec.maxPendingPerConnection(), served.handler(), served.credits()),
					withoutRetry, CallTimer.shared());
		};
	}

	/**
	 * Each client's servers as they stand: state, outstanding calls, failures.
	 * @return the instances by client name, for clients that have made a call
	 */
	public Map<String, List<InstanceStats>> instances() {
		Map<String, List<InstanceStats>> instances = new LinkedHashMap<>();
		this.callers.forEach((key, caller) -> {
			List<InstanceStats> stats = caller.instanceStats();
			if (!stats.isEmpty()) {
				instances.computeIfAbsent(key.name(), (name) -> new ArrayList<>()).addAll(stats);
			}
		});
		return instances;
	}

	/**
	 * Attempts of a client's calls sent again after a failed one (on another server, or on the
	 * same after a backoff): what the client retried. The pools under it retry nothing
	 * themselves.
	 * @param clientName the client name
	 * @return the count so far, 0 for a client not created yet
	 */
	public long failovers(String clientName) {
		long failovers = 0;
		for (Map.Entry<CallerKey, BalancedCaller> caller : this.callers.entrySet()) {
			if (caller.getKey().name().equals(clientName)) {
				failovers += caller.getValue().failovers();
			}
		}
		return failovers;
	}

	/**
	 * Closes every pool, what protects its calls first; waiting and later calls fail. A pool
	 * opening meanwhile is closed by its caller, which is closed by then.
	 */
	@Override
	public void close() {
		this.closed = true;
		for (BalancedCaller caller : this.callers.values()) {
			caller.close();
		}
	}

}

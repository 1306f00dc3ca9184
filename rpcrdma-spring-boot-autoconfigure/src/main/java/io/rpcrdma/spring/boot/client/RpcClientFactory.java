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
import java.util.function.Function;
import java.util.function.Supplier;

import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.service.ServiceClientFactory;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * Creates service proxies that call through named clients ({@code rpcrdma.client.<name>}),
 * for programmatic use; {@link ImportRpcClients @ImportRpcClients} registers proxy beans
 * through it. Proxies of one client name share its connection pools, which open on the
 * first call. Closing the factory closes every pool; calls then fail with a
 * {@link io.rpcrdma.client.PoolExhaustedException} saying the pool is closed.
 */
public class RpcClientFactory implements AutoCloseable {

	private final RdmaProvider provider;

	private final RegisteredMemoryPool memory;

	private final ServiceClientFactory proxies;

	private final Function<String, RpcClientSpec> specs;

	private final Supplier<Optional<InetSocketAddress>> localServer;

	private final ConcurrentMap<String, RoundRobinCaller> callers = new ConcurrentHashMap<>();

	private final ConcurrentMap<String, RpcClientSpec> resolved = new ConcurrentHashMap<>();

	/** Every pool opened, so that {@link #close()} closes one whose caller has not stored it yet. */
	private final List<RpcClientPool> opened = new ArrayList<>();

	private volatile boolean closed;

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
	 * Creates a proxy of a service interface calling through a named client. Never returns
	 * {@code null}; connections open on the first call.
	 * @param <T> the interface
	 * @param serviceInterface an interface annotated {@link io.rpcrdma.service.RpcProgram}
	 * @param clientName the client name, configured under {@code rpcrdma.client.<name>}
	 * @return the proxy
	 * @throws io.rpcrdma.service.ServiceDefinitionException if the interface is not a valid
	 * service
	 * @throws IllegalStateException if the factory is closed
	 */
	public <T> T createClient(Class<T> serviceInterface, String clientName) {
		Objects.requireNonNull(serviceInterface, "serviceInterface");
		Objects.requireNonNull(clientName, "clientName");
		if (this.closed) {
			throw new IllegalStateException("The RpcClientFactory is closed (the application context is shutting down); "
					+ "cannot create a " + serviceInterface.getName() + " client '" + clientName + "'");
		}
		RpcClientSpec spec = spec(clientName);
		RoundRobinCaller caller = this.callers.computeIfAbsent(clientName,
				(name) -> new RoundRobinCaller(name, this::open, spec.security()));
		return this.proxies.create(serviceInterface, caller, spec.options());
	}

	/**
	 * The pools opened so far, by client name; a client with several addresses has one entry
	 * per address, named {@code name[host:port]}.
	 * @return the pools, in client name order of creation
	 */
	public Map<String, RpcClientPool> pools() {
		Map<String, RpcClientPool> pools = new LinkedHashMap<>();
		this.callers.forEach((name, caller) -> {
			List<RpcClientPool> open = caller.openPools();
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

	private synchronized List<RpcClientPool> open(String clientName) {
		if (this.closed) {
			throw new IllegalStateException("rpcrdma client '" + clientName + "' is closed: the application context is "
					+ "shutting down");
		}
		RpcClientSpec spec = spec(clientName);
		List<InetSocketAddress> addresses = spec.addresses();
		if (spec.callsLocalServer()) {
			InetSocketAddress local = this.localServer.get()
				.orElseThrow(() -> new IllegalStateException("rpcrdma client '" + clientName + "' has no address and "
						+ "this application's RPC server is not listening; set rpcrdma.client." + clientName
						+ ".address=host:port"));
			addresses = List.of(local);
		}
		List<RpcClientPool> pools = new ArrayList<>();
		for (InetSocketAddress address : addresses) {
			pools.add(RpcClientPool.connect(this.provider, this.memory, address, spec.transport(),
					spec.maxPendingPerConnection(), spec.pool()));
		}
		this.opened.addAll(pools);
		return pools;
	}

	/** Closes every pool; waiting and later calls fail. */
	@Override
	public synchronized void close() {
		this.closed = true;
		for (RoundRobinCaller caller : this.callers.values()) {
			caller.closeProtection();
		}
		for (RpcClientPool pool : this.opened) {
			pool.close();
		}
	}

}

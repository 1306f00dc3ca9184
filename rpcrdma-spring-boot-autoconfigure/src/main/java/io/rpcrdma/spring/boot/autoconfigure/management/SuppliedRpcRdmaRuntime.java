package io.rpcrdma.spring.boot.autoconfigure.management;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.client.balance.InstanceStats;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.service.ExportedService;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * An {@link RpcRdmaRuntime} reading each part from a supplier, so it follows beans that are
 * created later or change state.
 */
final class SuppliedRpcRdmaRuntime implements RpcRdmaRuntime {

	private final Supplier<RdmaProvider> provider;

	private final Supplier<RegisteredMemoryPool> pool;

	private final BooleanSupplier serverEnabled;

	private final Supplier<Optional<RpcServer>> server;

	private final Supplier<List<ExportedService>> exported;

	private final Supplier<Map<String, RpcClientPool>> clients;

	private final Supplier<Set<String>> configuredClients;

	private final Supplier<Map<String, List<InstanceStats>>> instances;

	private final ToLongFunction<String> failovers;

	/**
	 * @param provider the provider, or supplies {@code null}
	 * @param pool the registered memory, or supplies {@code null}
	 * @param serverEnabled whether a server should listen
	 * @param server the listening server
	 * @param exported the exported services
	 * @param clients the client pools by name
	 * @param configuredClients the names of the clients configured (their pools may not exist yet)
	 * @param instances each client's instances by client name
	 * @param failovers the attempts a client sent again, by client name
	 */
	SuppliedRpcRdmaRuntime(Supplier<RdmaProvider> provider, Supplier<RegisteredMemoryPool> pool,
			BooleanSupplier serverEnabled, Supplier<Optional<RpcServer>> server, Supplier<List<ExportedService>> exported,
			Supplier<Map<String, RpcClientPool>> clients, Supplier<Set<String>> configuredClients,
			Supplier<Map<String, List<InstanceStats>>> instances, ToLongFunction<String> failovers) {
		this.provider = Objects.requireNonNull(provider, "provider");
		this.pool = Objects.requireNonNull(pool, "pool");
		this.serverEnabled = Objects.requireNonNull(serverEnabled, "serverEnabled");
		this.server = Objects.requireNonNull(server, "server");
		this.exported = Objects.requireNonNull(exported, "exported");
		this.clients = Objects.requireNonNull(clients, "clients");
		this.configuredClients = Objects.requireNonNull(configuredClients, "configuredClients");
		this.instances = Objects.requireNonNull(instances, "instances");
		this.failovers = Objects.requireNonNull(failovers, "failovers");
	}

	@Override
	public Optional<String> providerName() {
		return Optional.ofNullable(this.provider.get()).map(RdmaProvider::name);
	}

	@Override
	public Optional<RegisteredMemoryPool> memoryPool() {
		return Optional.ofNullable(this.pool.get());
	}

	@Override
	public boolean serverEnabled() {
		return this.serverEnabled.getAsBoolean();
	}

	@Override
	public Optional<RpcServer> server() {
		return this.server.get();
	}

	@Override
	public List<ExportedService> exportedServices() {
		return this.exported.get();
	}

	@Override
	public Map<String, RpcClientPool> clientPools() {
		return this.clients.get();
	}

	@Override
	public Set<String> clientNames() {
		Set<String> names = new TreeSet<>(this.configuredClients.get());
		names.addAll(RpcRdmaRuntime.super.clientNames());
		return names;
	}

	@Override
	public Map<String, List<InstanceStats>> clientInstances() {
		return this.instances.get();
	}

	@Override
	public long clientRetries(String clientName) {
		return this.failovers.applyAsLong(clientName) + RpcRdmaRuntime.super.clientRetries(clientName);
	}

}

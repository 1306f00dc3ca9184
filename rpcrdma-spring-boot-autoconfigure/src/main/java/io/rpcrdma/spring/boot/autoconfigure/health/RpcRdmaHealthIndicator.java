package io.rpcrdma.spring.boot.autoconfigure.health;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import io.rpcrdma.client.RpcClient;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.client.balance.InstanceState;
import io.rpcrdma.client.balance.InstanceStats;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.spring.boot.autoconfigure.management.RpcRdmaRuntime;

/**
 * The health of the RPC-over-RDMA infrastructure: the provider in use, the server (listening,
 * port, connections) and each client (connections open, consecutive failed attempts, the last
 * error; per address for a client with several, UNKNOWN for a configured client whose first
 * call has not opened its pool yet) with the servers it balances over: each instance's state
 * ({@code UP}, {@code EJECTED}, {@code PROBING}, {@code DRAINING}), outstanding calls,
 * consecutive failures and last failure.
 *
 * <p>DOWN only when the application cannot serve: a server was asked for and does not listen
 * (not started yet, failed, or shutting down). A client endpoint without a connection is shown
 * as DOWN in the details but leaves the overall status UP: the pool reconnects by itself, and
 * restarting this application (what a failing liveness probe does) would not bring the remote
 * server back. Likewise a client none of whose instances is {@code UP} (all ejected or being
 * probed: its calls fail at once) is DOWN in the details only; a client with some instances
 * ejected and one still up is UP, its ejected instances listed.
 */
public final class RpcRdmaHealthIndicator extends AbstractHealthIndicator {

	private final RpcRdmaRuntime runtime;

	/**
	 * @param runtime what to report on
	 */
	public RpcRdmaHealthIndicator(RpcRdmaRuntime runtime) {
		super("RPC-over-RDMA health check failed");
		this.runtime = Objects.requireNonNull(runtime, "runtime");
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		builder.up();
		this.runtime.providerName().ifPresent((name) -> builder.withDetail("provider", name));
		Map<String, Object> server = server();
		builder.withDetail("server", server);
		if (this.runtime.serverEnabled() && !Boolean.TRUE.equals(server.get("listening"))) {
			builder.down();
		}
		Map<String, Object> clients = new TreeMap<>();
		Map<String, List<InstanceStats>> instances = this.runtime.clientInstances();
		for (String name : this.runtime.clientNames()) {
			Map<String, Object> client = client(this.runtime.clientPools(name));
			List<InstanceStats> balanced = instances.get(name);
			if (balanced != null && !balanced.isEmpty()) {
				balancing(client, balanced);
			}
			clients.put(name, client);
		}
		if (!clients.isEmpty()) {
			builder.withDetail("clients", clients);
		}
	}

	private Map<String, Object> server() {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("enabled", this.runtime.serverEnabled());
		Optional<RpcServer> running = this.runtime.server();
		boolean accepting = running.map((server) -> server.dispatcher().inFlight().isAccepting()).orElse(false);
		details.put("listening", accepting);
		running.ifPresent((server) -> {
			details.put("port", this.runtime.serverPort());
			details.put("connections", server.connections().size());
			details.put("callsInFlight", server.dispatcher().inFlight().inFlight());
		});
		details.put("services", this.runtime.exportedServices().size());
		return details;
	}

	/** One client: its only pool, each of its pools by endpoint, or none before its first call. */
	private static Map<String, Object> client(List<RpcClientPool> pools) {
		if (pools.size() == 1) {
			return pool(pools.get(0));
		}
		Map<String, Object> details = new LinkedHashMap<>();
		if (pools.isEmpty()) {
			details.put("status", Status.UNKNOWN.getCode());
			details.put("connections", 0L);
			details.put("note", "connections open on the client's first call");
			return details;
		}
		Map<String, Object> endpoints = new TreeMap<>();
		for (RpcClientPool pool : pools) {
			endpoints.put(pool.endpoint(), pool(pool));
		}
		boolean anyUp = pools.stream().anyMatch((pool) -> openConnections(pool) > 0);
		details.put("status", (anyUp ? Status.UP : Status.DOWN).getCode());
		details.put("endpoints", endpoints);
		return details;
	}

	/**
	 * Adds a client's instances; with none {@code UP}, the client takes no call and is DOWN
	 * whatever its connections.
	 */
	private static void balancing(Map<String, Object> client, List<InstanceStats> balanced) {
		Map<String, Object> instances = new LinkedHashMap<>();
		for (InstanceStats stats : balanced) {
			Map<String, Object> instance = new LinkedHashMap<>();
			instance.put("state", stats.state().name());
			instance.put("address", stats.instance().address().getHostString() + ":" + stats.instance().address().getPort());
			instance.put("outstanding", stats.outstanding());
			instance.put("consecutiveFailures", stats.consecutiveFailures());
			if (stats.lastFailure() != null) {
				instance.put("lastFailure", stats.lastFailure());
			}
			instances.put(stats.instance().id(), instance);
		}
		if (balanced.stream().noneMatch((stats) -> stats.state() == InstanceState.UP)) {
			client.put("status", Status.DOWN.getCode());
		}
		client.put("instances", instances);
	}

	private static Map<String, Object> pool(RpcClientPool pool) {
		Map<String, Object> details = new LinkedHashMap<>();
		long open = openConnections(pool);
		details.put("status", ((open > 0) ? Status.UP : Status.DOWN).getCode());
		details.put("endpoint", pool.endpoint());
		details.put("connections", open);
		details.put("consecutiveFailures", pool.consecutiveFailures());
		pool.lastFailure().ifPresent((failure) -> details.put("lastError", describe(failure)));
		return details;
	}

	private static long openConnections(RpcClientPool pool) {
		return pool.connections().stream().filter(RpcClient::isOpen).count();
	}

	private static String describe(Throwable failure) {
		String message = failure.getMessage();
		return failure.getClass().getSimpleName() + ((message != null) ? ": " + message : "");
	}

}

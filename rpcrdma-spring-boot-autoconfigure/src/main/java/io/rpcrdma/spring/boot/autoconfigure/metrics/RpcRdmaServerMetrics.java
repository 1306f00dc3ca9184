package io.rpcrdma.spring.boot.autoconfigure.metrics;

import java.util.Objects;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.rpcrdma.server.DuplicateRequestCacheStats;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.spring.boot.autoconfigure.management.RpcRdmaRuntime;
import io.rpcrdma.transport.RpcRdmaServerConnection;
import io.rpcrdma.transport.TransportStats;

/**
 * Gauges and counters of the server: connections, credits (RFC 8166 §3.3.1), calls in flight,
 * calls the dispatcher refused, duplicate request cache hits, and what its connections
 * conveyed. The server is looked up at every read, so the meters follow it through restarts:
 * while none runs, everything reads 0, and a restarted server counts from 0 again (a counter
 * reset, as monitoring systems expect after a restart).
 */
public final class RpcRdmaServerMetrics implements MeterBinder {

	private final RpcRdmaRuntime runtime;

	/**
	 * @param runtime where the server is found
	 */
	public RpcRdmaServerMetrics(RpcRdmaRuntime runtime) {
		this.runtime = Objects.requireNonNull(runtime, "runtime");
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		gauge(registry, "rpcrdma.server.connections", (server) -> server.connections().size(),
				"Requesters connected now");
		counter(registry, "rpcrdma.server.connections.refused", Tags.empty(),
				(server) -> server.transport().refusedConnections(),
				"Connections refused for want of resources (the provider's queue pairs, siw.max-queue-pairs, or the memory pool's receive buffers) or at a connection cap");
		counter(registry, "rpcrdma.server.connections.capped", Tags.empty(),
				(server) -> server.transport().refusedAtConnectionCaps(),
				"Connections refused because their peer address held rpcrdma.server.max-connections-per-peer connections or the server rpcrdma.server.max-connections");
		gauge(registry, "rpcrdma.server.calls.in-flight", (server) -> server.dispatcher().inFlight().inFlight(),
				"Calls running now");
		gauge(registry, "rpcrdma.server.credits.granted", (server) -> server.creditBudget().granted(),
				"Credits granted to all connections (RFC 8166 §3.3.1)");
		gauge(registry, "rpcrdma.server.credits.in-use",
				(server) -> server.connections().stream().mapToInt(RpcRdmaServerConnection::outstanding).sum(),
				"Credits held by requests received and not yet answered");
		gauge(registry, "rpcrdma.server.drc.entries",
				(server) -> server.dispatcher().duplicateRequestCacheStats().map(DuplicateRequestCacheStats::entries)
					.orElse(0),
				"Replies held by the duplicate request cache");
		counter(registry, "rpcrdma.server.drc.hits", Tags.empty(),
				(server) -> server.dispatcher().duplicateRequestCacheStats().map(DuplicateRequestCacheStats::hits)
					.orElse(0L),
				"Retransmissions answered from the duplicate request cache without executing again");
		counter(registry, "rpcrdma.server.refused", Tags.of("reason", "system-error"),
				(server) -> server.dispatcher().stats().systemErrors(), "Calls answered SYSTEM_ERR because the handler failed");
		counter(registry, "rpcrdma.server.refused", Tags.of("reason", "garbage-args"),
				(server) -> server.dispatcher().stats().garbageArgs(), "Calls answered GARBAGE_ARGS");
		counter(registry, "rpcrdma.server.refused", Tags.of("reason", "overloaded"),
				(server) -> server.dispatcher().stats().overloaded(),
				"Calls refused because the executor was saturated, or their connection's share of it and its waiting room were full");
		counter(registry, "rpcrdma.server.calls.deferred", Tags.empty(), (server) -> server.dispatcher().stats().deferred(),
				"Calls that waited on their connection for a place in the executor, the connection holding its share (rpcrdma.server.executor.per-connection)");
		counter(registry, "rpcrdma.server.refused", Tags.of("reason", "auth-error"),
				(server) -> server.dispatcher().stats().authErrors(),
				"Calls answered AUTH_ERROR because the security policy does not accept their flavor");
		counter(registry, "rpcrdma.server.refused", Tags.of("reason", "dropped"),
				(server) -> server.dispatcher().stats().dropped(),
				"Messages dropped without a reply (malformed, shutting down)");
		TransportMeters.bind(registry, "rpcrdma.server.transport", Tags.empty(), this, RpcRdmaServerMetrics::totals);
	}

	private TransportStats totals() {
		return this.runtime.server().map(RpcServer::transportStats).orElse(TransportStats.ZERO);
	}

	// The meters hold this binder strongly: Micrometer keeps only a weak reference to a meter's
	// object, and a binder bound as new RpcRdmaServerMetrics(runtime).bindTo(registry) is
	// referenced by nothing else, so its meters would read NaN after the next collection.

	private void gauge(MeterRegistry registry, String name, ToDoubleFunction<RpcServer> value, String description) {
		Gauge.builder(name, this, (self) -> self.runtime.server().map(value::applyAsDouble).orElse(0.0))
			.strongReference(true)
			.description(description)
			.register(registry);
	}

	private void counter(MeterRegistry registry, String name, Tags tags, ToLongFunction<RpcServer> value,
			String description) {
		// A function counter has no strong reference of its own: its function holds the binder.
		FunctionCounter.builder(name, this, (ignored) -> this.runtime.server().map(value::applyAsLong).orElse(0L))
			.tags(tags)
			.description(description)
			.register(registry);
	}

}

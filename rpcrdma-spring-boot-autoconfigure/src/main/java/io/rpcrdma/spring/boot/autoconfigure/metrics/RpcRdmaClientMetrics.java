package io.rpcrdma.spring.boot.autoconfigure.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToDoubleFunction;

import org.springframework.beans.factory.SmartInitializingSingleton;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.rpcrdma.client.RpcClient;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.client.balance.InstanceState;
import io.rpcrdma.client.balance.InstanceStats;
import io.rpcrdma.spring.boot.autoconfigure.management.RpcRdmaRuntime;
import io.rpcrdma.transport.CreditWindow;
import io.rpcrdma.transport.RpcRdmaClientConnection;
import io.rpcrdma.transport.TransportStats;

/**
 * Gauges and counters of each client, tagged {@code client} with the client's name, summed
 * over its pools (one per address): connections, credits (granted, in use, calls waiting for
 * one; RFC 8166 §3.3.1), retries (the failovers of the client's balanced caller), consecutive failed connection attempts and what the
 * connections conveyed; and {@code rpcrdma.client.instances}, the client's servers in each
 * state, tagged {@code client} and {@code state} ({@code up}, {@code ejected}, {@code probing},
 * {@code draining}), never by address, so that the number of series stays bounded however
 * many servers come and go.
 *
 * <p>Meters exist for every configured client from the start (reading 0 until its first call
 * creates its pools). A client created under a name that is not configured (such as
 * {@code default} for {@code @ImportRpcClients} without a name) gets its meters when
 * {@link #bindNewClients()} finds its pool: once every singleton exists, and after the first
 * call to each endpoint ({@link ObservationServiceCallObserver} calls it).
 */
public final class RpcRdmaClientMetrics implements MeterBinder, SmartInitializingSingleton {

	private final RpcRdmaRuntime runtime;

	private final List<MeterRegistry> registries = new CopyOnWriteArrayList<>();

	private final Set<String> bound = ConcurrentHashMap.newKeySet();

	/**
	 * @param runtime where the client pools are found
	 */
	public RpcRdmaClientMetrics(RpcRdmaRuntime runtime) {
		this.runtime = Objects.requireNonNull(runtime, "runtime");
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.registries.add(registry);
		for (String name : this.runtime.clientNames()) {
			bind(registry, name);
		}
	}

	@Override
	public void afterSingletonsInstantiated() {
		bindNewClients();
	}

	/**
	 * Binds the meters of client pools created since the last time.
	 */
	public void bindNewClients() {
		for (String name : this.runtime.clientNames()) {
			if (this.bound.add(name)) {
				for (MeterRegistry registry : this.registries) {
					bind(registry, name);
				}
			}
		}
	}

	private void bind(MeterRegistry registry, String name) {
		this.bound.add(name);
		Tags tags = Tags.of("client", name);
		gauge(registry, "rpcrdma.client.connections", tags, name,
				(pool) -> pool.connections().stream().filter(RpcClient::isOpen).count(), "Connections open now");
		gauge(registry, "rpcrdma.client.connect.failures", tags, name, RpcClientPool::consecutiveFailures,
				"Failed connection attempts and lost connections since a connection last opened, summed over the client's addresses");
		gauge(registry, "rpcrdma.client.credits.granted", tags, name,
				(pool) -> credits(pool).stream().mapToInt(CreditWindow::limit).sum(),
				"Credits the servers granted to the pool's connections (RFC 8166 §3.3.1)");
		gauge(registry, "rpcrdma.client.credits.in-use", tags, name,
				(pool) -> credits(pool).stream().mapToInt(CreditWindow::outstanding).sum(),
				"Credits held by calls awaiting their replies");
		gauge(registry, "rpcrdma.client.credits.waiting", tags, name,
				(pool) -> credits(pool).stream().mapToInt(CreditWindow::waiting).sum(),
				"Calls waiting for a credit");
		// The meters hold this binder strongly (see RpcRdmaServerMetrics): a function counter
		// through its function, a gauge through strongReference.
		FunctionCounter.builder("rpcrdma.client.retries", this, (ignored) -> this.runtime.clientRetries(name))
			.tags(tags)
			.description("Attempts sent again after a failed one: to another server, or to the same after a backoff")
			.register(registry);
		TransportMeters.bind(registry, "rpcrdma.client.transport", tags, this, (self) -> self.totals(name));
		for (InstanceState state : InstanceState.values()) {
			Gauge.builder("rpcrdma.client.instances", this, (self) -> self.instances(name, state))
				.strongReference(true)
				.tags(tags.and("state", state.name().toLowerCase(Locale.ROOT)))
				.description("The client's servers in this state")
				.register(registry);
		}
	}

	private long instances(String name, InstanceState state) {
		List<InstanceStats> instances = this.runtime.clientInstances().get(name);
		return (instances != null) ? instances.stream().filter((stats) -> stats.state() == state).count() : 0;
	}

	private TransportStats totals(String name) {
		TransportStats total = TransportStats.ZERO;
		for (RpcClientPool pool : this.runtime.clientPools(name)) {
			total = total.plus(pool.transportStats());
		}
		return total;
	}

	private void gauge(MeterRegistry registry, String meter, Tags tags, String name, ToDoubleFunction<RpcClientPool> value,
			String description) {
		Gauge.builder(meter, this, (self) -> self.runtime.clientPools(name).stream().mapToDouble(value).sum())
			.strongReference(true)
			.tags(tags)
			.description(description)
			.register(registry);
	}

	private static List<CreditWindow> credits(RpcClientPool pool) {
		List<CreditWindow> windows = new ArrayList<>();
		for (RpcClient client : pool.connections()) {
			if (client.transport() instanceof RpcRdmaClientConnection connection) {
				windows.add(connection.credits());
			}
		}
		return windows;
	}

}

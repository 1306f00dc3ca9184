package io.rpcrdma.spring.boot.autoconfigure.metrics;

import java.util.Objects;
import java.util.function.ToLongFunction;

import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.rpcrdma.memory.MemoryPoolStats;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.spring.boot.autoconfigure.management.RpcRdmaRuntime;

/**
 * Gauges and counters of the registered memory pool: what is registered with the RDMA device,
 * leased to transports, and free; how often a lease had to wait or failed.
 */
public final class RpcRdmaMemoryMetrics implements MeterBinder {

	private final RpcRdmaRuntime runtime;

	/**
	 * @param runtime where the pool is found; without one, nothing is bound
	 */
	public RpcRdmaMemoryMetrics(RpcRdmaRuntime runtime) {
		this.runtime = Objects.requireNonNull(runtime, "runtime");
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.runtime.memoryPool().ifPresent((pool) -> bindTo(registry, pool));
	}

	private static void bindTo(MeterRegistry registry, RegisteredMemoryPool pool) {
		gauge(registry, pool, "rpcrdma.memory.registered", MemoryPoolStats::registeredBytes,
				"Bytes of memory registered with the RDMA device now");
		gauge(registry, pool, "rpcrdma.memory.leased", MemoryPoolStats::leasedBytes,
				"Bytes of registered buffers leased to transports now");
		gauge(registry, pool, "rpcrdma.memory.free", MemoryPoolStats::freeBytes,
				"Bytes of registered buffers not leased");
		gauge(registry, pool, "rpcrdma.memory.max", MemoryPoolStats::maxRegisteredBytes,
				"The most bytes the pool may register");
		FunctionCounter.builder("rpcrdma.memory.lease.waits", pool, (watched) -> watched.stats().leaseWaits())
			.description("Leases that had to wait for a buffer to be released")
			.register(registry);
		FunctionCounter.builder("rpcrdma.memory.lease.failures", pool,
				(watched) -> watched.stats().exhaustionFailures())
			.description("Leases that failed because a size class was exhausted")
			.register(registry);
	}

	private static void gauge(MeterRegistry registry, RegisteredMemoryPool pool, String name,
			ToLongFunction<MemoryPoolStats> value, String description) {
		Gauge.builder(name, pool, (watched) -> value.applyAsLong(watched.stats()))
			.baseUnit(BaseUnits.BYTES)
			.description(description)
			.register(registry);
	}

}

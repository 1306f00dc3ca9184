package io.rpcrdma.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * Leasing and releasing pre-registered memory, which every call does for its send buffer and
 * every bulk call for its chunks (RFC 5666 §7: the hot path never registers). A send buffer
 * is a pop and a push on a lock-free stack; a Read chunk buffer also gets a fresh STag on
 * release (RFC 8166 §8) and, by default, is zeroed. Registered in the loopback provider's
 * protection domain, so what is measured is the pool, not a device.
 * <pre>
 * java -jar rpcrdma-benchmarks/target/rpcrdma-benchmarks.jar MemoryPool -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MemoryPoolBenchmark {

	/** The role leased: an inline send buffer, or an advertised Read chunk buffer of 4 KiB. */
	@Param({ "SEND", "READ_CHUNK" })
	public BufferRole role;

	private RdmaProvider provider;

	private RegisteredMemoryPool pool;

	private int length;

	@Setup(Level.Trial)
	public void open() throws InterruptedException {
		this.provider = RdmaProviders.open("loopback");
		this.pool = new RegisteredMemoryPool(this.provider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
		this.length = (this.role == BufferRole.SEND) ? 256 : MemoryPoolConfig.DEFAULT_SMALLEST_CHUNK;
		// Grow the class before measuring: a lease that registers is not the steady state.
		RegisteredBuffer first = this.pool.lease(this.role, this.length);
		RegisteredBuffer second = this.pool.lease(this.role, this.length);
		first.release();
		second.release();
	}

	@TearDown(Level.Trial)
	public void close() {
		this.pool.close();
		this.provider.close();
	}

	/** What the transport does on its completion paths: never waits. */
	@Benchmark
	public int tryLeaseRelease() {
		RegisteredBuffer buffer = this.pool.tryLease(this.role, this.length);
		int key = buffer.lkey();
		buffer.release();
		return key;
	}

	/** The same from two threads sharing the pool. */
	@Benchmark
	@Threads(2)
	public int tryLeaseReleaseTwoThreads() {
		RegisteredBuffer buffer = this.pool.tryLease(this.role, this.length);
		int key = buffer.lkey();
		buffer.release();
		return key;
	}

}

package io.rpcrdma.benchmarks;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import io.rpcrdma.transport.CreditWindow;

/**
 * The requester's credit window (RFC 8166 §3.3.1) on the path of every call: a credit taken
 * before the call is sent and given back when its reply is done, with the grant of 32 credits
 * the default responder gives. Alone, and with two threads sharing one window as the calls of
 * one connection do.
 * <pre>
 * java -jar rpcrdma-benchmarks/target/rpcrdma-benchmarks.jar CreditWindow -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CreditWindowBenchmark {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private CreditWindow window;

	@Setup
	public void grant() {
		this.window = new CreditWindow(32);
		this.window.updateGrant(32);
	}

	/** The non-blocking fast path: a free credit, taken and given back. */
	@Benchmark
	public boolean tryAcquireRelease() {
		boolean taken = this.window.tryAcquire();
		if (taken) {
			this.window.release();
		}
		return taken;
	}

	/** The path a call takes: a future that is already complete when a credit is free. */
	@Benchmark
	public boolean acquireRelease() {
		boolean done = this.window.acquire(WAIT).isDone();
		this.window.release();
		return done;
	}

	/** Two threads on one window, as two callers of one connection. */
	@Benchmark
	@Threads(2)
	public boolean acquireReleaseTwoThreads() {
		boolean done = this.window.acquire(WAIT).isDone();
		this.window.release();
		return done;
	}

}

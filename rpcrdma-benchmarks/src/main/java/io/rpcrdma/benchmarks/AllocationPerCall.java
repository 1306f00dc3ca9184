package io.rpcrdma.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.Locale;

import io.rpcrdma.benchmarks.compare.CompareServer;

/**
 * Bytes allocated per small call on the client, counted exactly rather than sampled: the
 * server runs in a child JVM ({@link SmallCallBenchmark} with {@code server=process}), and
 * the JVM's per-thread allocation counters of every thread in this one are read before and
 * after each of several batches of calls, after a warm-up that lets the JIT finish, and the
 * least batch is reported. {@code -prof gc} in JMH
 * gives the same figure but with a wide error at this call rate.
 * <pre>
 * java -cp rpcrdma-benchmarks/target/rpcrdma-benchmarks.jar io.rpcrdma.benchmarks.AllocationPerCall
 * </pre>
 */
public final class AllocationPerCall {

	/** Batches measured of each kind of call, the least reported (see {@link #least}). */
	static final int BATCHES = 5;

	private AllocationPerCall() {
	}

	/**
	 * @param args optional: the number of calls in a measured batch (default 20000), and which side to
	 * count: {@code client}, {@code server} or {@code both} (the default)
	 * @throws Exception if the server cannot be started or a call fails
	 */
	public static void main(String[] args) throws Exception {
		int calls = (args.length > 0) ? Integer.parseInt(args[0]) : 20_000;
		String which = (args.length > 1) ? args[1] : "both";
		if (!"server".equals(which)) {
			Figures figures = measure(calls);
			System.out.printf(Locale.ROOT, "client bytes per call: rpcCall %d, serviceCall %d, transportCall %d (%d calls each)%n",
					figures.rpcCall(), figures.serviceCall(), figures.transportCall(), calls);
		}
		if (!"client".equals(which)) {
			System.out.printf(Locale.ROOT, "server bytes per call: %d (%d service calls)%n", measureServer(calls), calls);
		}
	}

	/**
	 * Starts the benchmarks' server ({@code CompareServer}: DIRECT handlers, software iWARP) in
	 * this JVM and {@link SmallCallClient} in a child JVM, warms up, and counts what the server
	 * allocates per small service call ({@code Calculator.add(1, 2)}), all threads of this JVM
	 * counted: the provider's receive thread, which dispatches the call, and the handler.
	 * @param calls the calls of one measured batch (three times as many warm up first)
	 * @return the bytes per call
	 * @throws Exception if the server or the client cannot be started or a call fails
	 */
	public static long measureServer(int calls) throws Exception {
		try (CompareServer server = new CompareServer("siw",
				new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
				SmallCallClient client = new SmallCallClient(server.address())) {
			client.serviceCalls(3 * calls);
			long least = Long.MAX_VALUE;
			for (int batch = 0; batch < BATCHES; batch++) {
				least = Math.min(least, measureBatch(calls, () -> client.serviceCalls(calls)));
			}
			return least;
		}
	}

	/**
	 * Starts a server in a child JVM, warms up, and counts what each kind of small call
	 * allocates on the client.
	 * @param calls the calls of one measured batch of each kind (three times as many of each warm up
	 * first)
	 * @return the bytes per call
	 * @throws Exception if the server cannot be started or a call fails
	 */
	public static Figures measure(int calls) throws Exception {
		SmallCallBenchmark benchmark = new SmallCallBenchmark();
		benchmark.server = "process";
		benchmark.connect();
		try {
			for (int i = 0; i < 3 * calls; i++) {
				benchmark.rpcCall();
				benchmark.serviceCall();
				benchmark.transportCall();
			}
			long rpc = least(calls, benchmark::rpcCall);
			long service = least(calls, benchmark::serviceCall);
			long transport = least(calls, benchmark::transportCall);
			return new Figures(rpc, service, transport);
		}
		finally {
			benchmark.close();
		}
	}

	/**
	 * Bytes allocated per call by all client threads.
	 * @param rpcCall through {@code RpcClientPool}'s future API
	 * @param serviceCall through a service proxy's synchronous method
	 * @param transportCall straight through the transport with a reused completion
	 */
	public record Figures(long rpcCall, long serviceCall, long transportCall) {
	}

	/**
	 * The least of {@link #BATCHES} batches: an allocation on the call path shows in every
	 * batch, while what a loaded machine adds (a method the JIT has not finished compiling, so
	 * escape analysis has not yet removed its allocations; a timer thread's work, which grows
	 * with the batch's wall time) shows in some batches only. CI failed on a single batch at
	 * 311 B with 2 cores shared, where an idle machine measures 162 B.
	 */
	private static long least(int calls, Call call) throws Exception {
		long least = Long.MAX_VALUE;
		for (int batch = 0; batch < BATCHES; batch++) {
			least = Math.min(least, measure(calls, call));
		}
		return least;
	}

	private static long measure(int calls, Call call) throws Exception {
		long before = allocatedByAllThreads();
		for (int i = 0; i < calls; i++) {
			call.run();
		}
		return (allocatedByAllThreads() - before) / calls;
	}

	private static long measureBatch(int calls, Batch batch) throws Exception {
		long before = allocatedByAllThreads();
		batch.run();
		return (allocatedByAllThreads() - before) / calls;
	}

	@FunctionalInterface
	private interface Batch {

		void run() throws Exception;

	}

	private static long allocatedByAllThreads() {
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		long total = 0;
		for (long allocated : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
			total += Math.max(0, allocated);
		}
		return total;
	}

	@FunctionalInterface
	private interface Call {

		void run() throws Exception;

	}

}

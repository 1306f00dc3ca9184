package io.rpcrdma.verbs.loopback;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.BenchmarkSupport;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.ReceiveWorkRequest;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.WorkCompletion;

/**
 * Measures the loopback provider: 64-byte Send/Receive ping-pong latency and RDMA Read
 * bandwidth. Not a test (surefire does not run it); run it with
 * <pre>
 * ./mvnw -q -pl rpcrdma-core -am test-compile
 * java -cp rpcrdma-verbs/target/classes:rpcrdma-siw/target/classes:rpcrdma-core/target/test-classes \
 *     io.rpcrdma.verbs.loopback.LoopbackBenchmark [pingPongIterations]
 * </pre>
 * The ping-pong client is the main thread: it posts a receive and a Send, then busy-polls
 * its receive completion queue (yielding between polls). The server answers from its completion handler, which runs
 * on a provider engine thread. Everything on the hot path is pre-built, so the loop
 * allocates nothing.
 */
public final class LoopbackBenchmark {

	private static final int MESSAGE = 64;

	private static final int TRIALS = 7;

	private LoopbackBenchmark() {
	}

	/**
	 * Runs the benchmark and prints the figures.
	 * @param args optionally the number of ping-pong iterations (default 200000)
	 * @throws Exception if the provider fails
	 */
	public static void main(String[] args) throws Exception {
		int iterations = (args.length > 0) ? Integer.parseInt(args[0]) : 200_000;
		System.out.printf(Locale.ROOT, "JDK %s (%s), %d processors, %s %s%n", System.getProperty("java.version"),
				System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors(),
				System.getProperty("os.name"), System.getProperty("os.arch"));
		RdmaProviderConfig config = RdmaProviderConfig.defaults();
		try (RdmaProvider provider = RdmaProviders.open("loopback", config)) {
			pingPong("one provider (both ends on one engine)", provider, provider, iterations);
		}
		try (RdmaProvider server = RdmaProviders.open("loopback", config);
				RdmaProvider client = RdmaProviders.open("loopback", config)) {
			pingPong("two providers (one engine per end)", server, client, iterations);
		}
		try (RdmaProvider server = RdmaProviders.open("loopback", config);
				RdmaProvider client = RdmaProviders.open("loopback", config)) {
			memcpyBaseline(1 << 20);
			memcpyBaseline(4 << 20);
			for (int size : new int[] { 4 << 10, 64 << 10, 1 << 20, 4 << 20 }) {
				readBandwidth(server, client, size);
			}
		}
	}

	private static void pingPong(String label, RdmaProvider serverProvider, RdmaProvider clientProvider,
			int iterations) throws Exception {
		QueuePair serverQp = BenchmarkSupport.echoServer(serverProvider, MESSAGE);

		ProtectionDomain clientPd = clientProvider.allocateProtectionDomain();
		MemoryRegion request = clientPd.registerMemory(ByteBuffer.allocateDirect(MESSAGE), EnumSet.noneOf(AccessFlag.class));
		MemoryRegion response = clientPd.registerMemory(ByteBuffer.allocateDirect(MESSAGE),
				EnumSet.of(AccessFlag.LOCAL_WRITE));
		CompletionQueue clientSendCq = clientProvider.createCompletionQueue(1024, null);
		CompletionQueue clientRecvCq = clientProvider.createCompletionQueue(1024, null);
		QueuePair clientQp = clientProvider.createQueuePair(QueuePairAttributes.of(clientPd, clientSendCq, clientRecvCq));
		SendWorkRequest ping = SendWorkRequest.send(3, ScatterGatherEntry.of(request)).unsignaled();
		ReceiveWorkRequest pong = ReceiveWorkRequest.of(4, ScatterGatherEntry.of(response));

		RdmaConnection connection = connect(serverProvider, clientProvider, serverQp, clientQp);
		WorkCompletion[] batch = { new WorkCompletion() };
		int warmup = Math.max(20_000, iterations / 4);
		for (int i = 0; i < warmup; i++) {
			roundTrip(clientQp, clientRecvCq, ping, pong, batch);
		}
		long[] samples = new long[iterations];
		long allocatedBefore = BenchmarkSupport.allocatedBytes();
		long began = System.nanoTime();
		for (int i = 0; i < iterations; i++) {
			long start = System.nanoTime();
			roundTrip(clientQp, clientRecvCq, ping, pong, batch);
			samples[i] = System.nanoTime() - start;
		}
		long elapsed = System.nanoTime() - began;
		long allocated = BenchmarkSupport.allocatedBytes() - allocatedBefore;
		Arrays.sort(samples);
		System.out.printf(Locale.ROOT,
				"Send/Recv %d-byte ping-pong, %s: p50 %.2f us, p90 %.2f us, p99 %.2f us, p99.9 %.2f us, "
						+ "%.0f round trips/s, %.2f bytes allocated per round trip (all threads) "
						+ "(%d iterations after %d warm-up)%n",
				MESSAGE, label, micros(samples, 0.50), micros(samples, 0.90), micros(samples, 0.99),
				micros(samples, 0.999), iterations / (elapsed / 1e9), (double) allocated / iterations, iterations,
				warmup);
		connection.close();
		serverQp.close();
	}

	private static void roundTrip(QueuePair qp, CompletionQueue recvCq, SendWorkRequest ping, ReceiveWorkRequest pong,
			WorkCompletion[] batch) {
		qp.postRecv(pong);
		qp.postSend(ping);
		while (recvCq.poll(batch) == 0) {
			// A polite busy poll: lets the engine run if it shares this CPU.
			Thread.yield();
		}
		if (!batch[0].isSuccess()) {
			throw new IllegalStateException("Ping-pong failed: " + batch[0]);
		}
	}

	private static void readBandwidth(RdmaProvider serverProvider, RdmaProvider clientProvider, int size)
			throws Exception {
		int depth = 16;
		ProtectionDomain serverPd = serverProvider.allocateProtectionDomain();
		MemoryRegion source = serverPd.registerMemory(ByteBuffer.allocateDirect(size), EnumSet.of(AccessFlag.REMOTE_READ));
		CompletionQueue serverCq = serverProvider.createCompletionQueue(64, null);
		QueuePair serverQp = serverProvider.createQueuePair(QueuePairAttributes.of(serverPd, serverCq));
		ProtectionDomain clientPd = clientProvider.allocateProtectionDomain();
		MemoryRegion sink = clientPd.registerMemory(ByteBuffer.allocateDirect(size), EnumSet.of(AccessFlag.LOCAL_WRITE));
		CompletionQueue clientCq = clientProvider.createCompletionQueue(depth * 2, null);
		QueuePair clientQp = clientProvider
			.createQueuePair(QueuePairAttributes.of(clientPd, clientCq).withQueueDepths(depth, 4));
		RdmaConnection connection = connect(serverProvider, clientProvider, serverQp, clientQp);
		SendWorkRequest read = SendWorkRequest.rdmaRead(1, source.remoteAddress(0), ScatterGatherEntry.of(sink));
		WorkCompletion[] batch = new WorkCompletion[depth];
		long ops = Math.max(200, (512L << 20) / size);
		runReads(clientQp, clientCq, read, batch, depth, ops);
		double[] trials = new double[TRIALS];
		long totalOps = 0;
		long totalNanos = 0;
		for (int t = 0; t < TRIALS; t++) {
			long start = System.nanoTime();
			runReads(clientQp, clientCq, read, batch, depth, ops);
			long elapsed = System.nanoTime() - start;
			trials[t] = (double) ops * size / elapsed;
			totalOps += ops;
			totalNanos += elapsed;
		}
		Arrays.sort(trials);
		System.out.printf(Locale.ROOT,
				"RDMA Read %7s: median %6.2f GB/s, best %6.2f GB/s, worst %6.2f GB/s over %d trials of %d reads; "
						+ "%.2f us per read on average%n",
				label(size), trials[TRIALS / 2], trials[TRIALS - 1], trials[0], TRIALS, ops,
				totalNanos / 1e3 / totalOps);
		connection.close();
		serverQp.close();
		clientQp.close();
		serverPd.close();
		clientPd.close();
	}

	private static void runReads(QueuePair qp, CompletionQueue cq, SendWorkRequest read, WorkCompletion[] batch,
			int depth, long ops) {
		long posted = 0;
		long completed = 0;
		while (completed < ops) {
			while (posted < ops && posted - completed < depth) {
				qp.postSend(read);
				posted++;
			}
			int n = cq.poll(batch);
			for (int i = 0; i < n; i++) {
				if (!batch[i].isSuccess()) {
					throw new IllegalStateException("RDMA Read failed: " + batch[i]);
				}
			}
			completed += n;
			if (n == 0) {
				Thread.yield();
			}
		}
	}

	private static void memcpyBaseline(int size) {
		ByteBuffer from = ByteBuffer.allocateDirect(size);
		ByteBuffer to = ByteBuffer.allocateDirect(size);
		int ops = Math.max(64, (512 << 20) / size);
		double[] trials = new double[TRIALS + 1];
		for (int t = 0; t <= TRIALS; t++) {
			long start = System.nanoTime();
			for (int i = 0; i < ops; i++) {
				to.put(0, from, 0, size);
			}
			trials[t] = (double) ops * size / (System.nanoTime() - start);
		}
		trials = Arrays.copyOfRange(trials, 1, trials.length);
		Arrays.sort(trials);
		System.out.printf(Locale.ROOT,
				"memcpy baseline (ByteBuffer.put, %s direct to direct, one thread): median %.2f GB/s, best %.2f GB/s%n",
				label(size), trials[TRIALS / 2], trials[TRIALS - 1]);
	}

	private static RdmaConnection connect(RdmaProvider serverProvider, RdmaProvider clientProvider, QueuePair serverQp,
			QueuePair clientQp) throws Exception {
		return BenchmarkSupport.connect(serverProvider, clientProvider, serverQp, clientQp,
				InetSocketAddress.createUnresolved("benchmark", 0));
	}

	private static double micros(long[] sorted, double percentile) {
		return BenchmarkSupport.percentile(sorted, percentile) / 1e3;
	}

	private static String label(int size) {
		return (size >= (1 << 20)) ? (size >> 20) + " MiB" : (size >> 10) + " KiB";
	}

}

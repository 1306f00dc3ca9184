package io.rpcrdma.verbs;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * What the providers' benchmarks ({@code LoopbackBenchmark}, {@code SiwBenchmark}) share:
 * the echoing server end of a ping-pong, connecting a client queue pair to a server one,
 * counting what all threads allocate, and reading percentiles off sorted samples.
 */
public final class BenchmarkSupport {

	private BenchmarkSupport() {
	}

	/**
	 * Connects two queue pairs through a listener that accepts once and is closed after.
	 * @param serverProvider the provider that listens
	 * @param clientProvider the provider that connects
	 * @param serverQp the queue pair that accepts
	 * @param clientQp the queue pair that connects
	 * @param listenAddress where to listen (port 0 for any)
	 * @return the client's connection
	 * @throws Exception if connecting or accepting fails or takes over 10 seconds
	 */
	public static RdmaConnection connect(RdmaProvider serverProvider, RdmaProvider clientProvider,
			QueuePair serverQp, QueuePair clientQp, InetSocketAddress listenAddress) throws Exception {
		CompletableFuture<RdmaConnection> accepted = new CompletableFuture<>();
		try (RdmaListener listener = serverProvider.listen(listenAddress,
				(request) -> accepted.complete(request.accept(serverQp, PrivateData.EMPTY, null)))) {
			RdmaConnection connection = clientProvider
				.connect(clientQp, ConnectParameters.to(listener.localAddress()))
				.get(10, TimeUnit.SECONDS);
			accepted.get(10, TimeUnit.SECONDS);
			return connection;
		}
	}

	/**
	 * The server end of a Send/Receive ping-pong: a queue pair that answers every message
	 * with the same bytes from its receive completion handler, so that it is woken by the
	 * message as the client is by the answer.
	 * @param provider the provider
	 * @param messageSize the size of the messages
	 * @return the queue pair, in INIT with a receive posted, to accept a connection with
	 */
	public static QueuePair echoServer(RdmaProvider provider, int messageSize) {
		ProtectionDomain pd = provider.allocateProtectionDomain();
		MemoryRegion buffer = pd.registerMemory(ByteBuffer.allocateDirect(messageSize),
				EnumSet.of(AccessFlag.LOCAL_WRITE));
		ReceiveWorkRequest recv = ReceiveWorkRequest.of(1, ScatterGatherEntry.of(buffer));
		SendWorkRequest reply = SendWorkRequest.send(2, ScatterGatherEntry.of(buffer)).unsignaled();
		QueuePair[] qp = new QueuePair[1];
		WorkCompletion[] batch = new WorkCompletion[16];
		CompletionQueue sendCq = provider.createCompletionQueue(1024, null);
		CompletionQueue recvCq = provider.createCompletionQueue(1024, (cq) -> {
			echo(cq, batch, qp[0], recv, reply);
			cq.requestNotification();
			echo(cq, batch, qp[0], recv, reply);
		});
		qp[0] = provider.createQueuePair(QueuePairAttributes.of(pd, sendCq, recvCq));
		qp[0].postRecv(recv);
		recvCq.requestNotification();
		return qp[0];
	}

	private static void echo(CompletionQueue cq, WorkCompletion[] batch, QueuePair qp, ReceiveWorkRequest recv,
			SendWorkRequest reply) {
		int n;
		while ((n = cq.poll(batch)) > 0) {
			for (int i = 0; i < n; i++) {
				if (batch[i].isSuccess()) {
					qp.postRecv(recv);
					qp.postSend(reply);
				}
			}
		}
	}

	/**
	 * Bytes allocated so far by all live threads (HotSpot's per-thread allocation counters),
	 * as a provider allocates on its own threads too.
	 * @return the bytes, or 0 on a JVM without the counters
	 */
	public static long allocatedBytes() {
		java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		if (threads instanceof com.sun.management.ThreadMXBean hotspot) {
			long total = 0;
			for (long allocated : hotspot.getThreadAllocatedBytes(hotspot.getAllThreadIds())) {
				total += Math.max(0, allocated);
			}
			return total;
		}
		return 0;
	}

	/**
	 * A percentile of sorted samples: the nearest-rank sample.
	 * @param sorted the samples, sorted ascending, at least one
	 * @param p the percentile, 0 to 1
	 * @return the sample
	 */
	public static long percentile(long[] sorted, double p) {
		return sorted[(int) Math.min(sorted.length - 1, Math.round(p * (sorted.length - 1)))];
	}

}

package io.rpcrdma.verbs.siw;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.ReceiveWorkRequest;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.WorkCompletion;

/**
 * Measures the software iWARP provider against plain Java sockets on the same machine, in
 * the same run: 64-byte ping-pong latency (a blocking {@link Socket} echo vs siw Send/Recv)
 * and 1 MiB transfer bandwidth (1 MiB answers to pipelined requests on a blocking
 * {@link SocketChannel} vs siw 1 MiB RDMA Reads, 16 in flight each). Not a test; run with
 * <pre>
 * ./mvnw -q -pl rpcrdma-core test-compile
 * java -cp rpcrdma-core/target/classes:rpcrdma-core/target/test-classes \
 *     io.rpcrdma.verbs.siw.SiwBenchmark [pingPongIterations]
 * </pre>
 * In both ping-pongs each side reacts to the other's message on a thread that was blocked
 * waiting for it: the socket client and echo server in {@code read}, the siw client and
 * server in their receive completion handlers, which run on the connections' receive
 * threads. Both clients time each round trip with {@code System.nanoTime}.
 */
public final class SiwBenchmark {

	private static final int MESSAGE = 64;

	private static final int TRIALS = 5;

	private static final int DEPTH = 16;

	private SiwBenchmark() {
	}

	/**
	 * Runs the benchmark and prints the figures.
	 * @param args optionally the number of ping-pong iterations (default 50000)
	 * @throws Exception if something fails
	 */
	public static void main(String[] args) throws Exception {
		int iterations = (args.length > 0) ? Integer.parseInt(args[0]) : 50_000;
		System.out.printf(Locale.ROOT, "JDK %s (%s), %d processors, %s %s%n", System.getProperty("java.version"),
				System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors(),
				System.getProperty("os.name"), System.getProperty("os.arch"));
		long[] socket = socketPingPong(iterations);
		long[] siw;
		try (RdmaProvider server = RdmaProviders.open("siw", RdmaProviderConfig.defaults());
				RdmaProvider client = RdmaProviders.open("siw", RdmaProviderConfig.defaults())) {
			siw = siwPingPong(server, client, iterations);
		}
		report("plain socket", socket);
		report("siw Send/Recv", siw);
		System.out.printf(Locale.ROOT, "ratio siw/socket: p50 %.2f, p99 %.2f%n",
				(double) percentile(siw, 0.5) / percentile(socket, 0.5),
				(double) percentile(siw, 0.99) / percentile(socket, 0.99));
		int size = 1 << 20;
		double plain = socketBandwidth(size);
		double read;
		try (RdmaProvider server = RdmaProviders.open("siw", RdmaProviderConfig.defaults());
				RdmaProvider client = RdmaProviders.open("siw", RdmaProviderConfig.defaults())) {
			read = readBandwidth(server, client, size);
		}
		System.out.printf(Locale.ROOT, "1 MiB transfers: plain socket median %.2f GB/s, siw RDMA Read median %.2f GB/s,"
				+ " ratio %.2f%n", plain, read, read / plain);
	}

	// ---- latency ------------------------------------------------------------------------

	private static long[] socketPingPong(int iterations) throws Exception {
		try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			Thread echo = new Thread(() -> {
				try (Socket s = server.accept()) {
					s.setTcpNoDelay(true);
					InputStream in = s.getInputStream();
					OutputStream out = s.getOutputStream();
					byte[] buffer = new byte[MESSAGE];
					while (readFully(in, buffer)) {
						out.write(buffer);
					}
				}
				catch (IOException ex) {
					// client gone
				}
			}, "socket-echo");
			echo.setDaemon(true);
			echo.start();
			try (Socket client = new Socket(server.getInetAddress(), server.getLocalPort())) {
				client.setTcpNoDelay(true);
				InputStream in = client.getInputStream();
				OutputStream out = client.getOutputStream();
				byte[] message = new byte[MESSAGE];
				int warmup = Math.max(10_000, iterations / 4);
				for (int i = 0; i < warmup; i++) {
					out.write(message);
					readFully(in, message);
				}
				long[] samples = new long[iterations];
				for (int i = 0; i < iterations; i++) {
					long start = System.nanoTime();
					out.write(message);
					readFully(in, message);
					samples[i] = System.nanoTime() - start;
				}
				Arrays.sort(samples);
				return samples;
			}
		}
	}

	private static boolean readFully(InputStream in, byte[] buffer) throws IOException {
		int done = 0;
		while (done < buffer.length) {
			int n = in.read(buffer, done, buffer.length - done);
			if (n < 0) {
				return false;
			}
			done += n;
		}
		return true;
	}

	private static long[] siwPingPong(RdmaProvider serverProvider, RdmaProvider clientProvider, int iterations)
			throws Exception {
		ProtectionDomain serverPd = serverProvider.allocateProtectionDomain();
		MemoryRegion serverBuffer = serverPd.registerMemory(ByteBuffer.allocateDirect(MESSAGE),
				EnumSet.of(AccessFlag.LOCAL_WRITE));
		ReceiveWorkRequest serverRecv = ReceiveWorkRequest.of(1, ScatterGatherEntry.of(serverBuffer));
		SendWorkRequest reply = SendWorkRequest.send(2, ScatterGatherEntry.of(serverBuffer)).unsignaled();
		QueuePair[] serverQp = new QueuePair[1];
		WorkCompletion[] serverBatch = new WorkCompletion[16];
		CompletionQueue serverSendCq = serverProvider.createCompletionQueue(1024, null);
		CompletionQueue serverRecvCq = serverProvider.createCompletionQueue(1024, (cq) -> {
			echo(cq, serverBatch, serverQp[0], serverRecv, reply);
			cq.requestNotification();
			echo(cq, serverBatch, serverQp[0], serverRecv, reply);
		});
		serverQp[0] = serverProvider.createQueuePair(QueuePairAttributes.of(serverPd, serverSendCq, serverRecvCq));
		serverQp[0].postRecv(serverRecv);
		serverRecvCq.requestNotification();

		ProtectionDomain clientPd = clientProvider.allocateProtectionDomain();
		MemoryRegion request = clientPd.registerMemory(ByteBuffer.allocateDirect(MESSAGE), EnumSet.noneOf(AccessFlag.class));
		MemoryRegion response = clientPd.registerMemory(ByteBuffer.allocateDirect(MESSAGE),
				EnumSet.of(AccessFlag.LOCAL_WRITE));
		CompletionQueue clientSendCq = clientProvider.createCompletionQueue(1024, null);
		PingPongClient pinger = new PingPongClient(iterations, Math.max(10_000, iterations / 4));
		CompletionQueue clientRecvCq = clientProvider.createCompletionQueue(1024, pinger::onCompletion);
		QueuePair clientQp = clientProvider.createQueuePair(QueuePairAttributes.of(clientPd, clientSendCq, clientRecvCq));
		pinger.qp = clientQp;
		pinger.ping = SendWorkRequest.send(3, ScatterGatherEntry.of(request)).unsignaled();
		pinger.pong = ReceiveWorkRequest.of(4, ScatterGatherEntry.of(response));
		RdmaConnection connection = connect(serverProvider, clientProvider, serverQp[0], clientQp);
		clientRecvCq.requestNotification();
		pinger.next();
		if (!pinger.done.await(5, TimeUnit.MINUTES)) {
			throw new IllegalStateException("siw ping-pong stalled after " + pinger.count + " round trips");
		}
		long[] samples = pinger.samples;
		Arrays.sort(samples);
		connection.close();
		serverQp[0].close();
		return samples;
	}

	/**
	 * The siw ping-pong client, driven by its receive completion handler on the
	 * connection's receive thread, as the socket client is driven by a blocking read.
	 */
	private static final class PingPongClient {

		final long[] samples;

		final int warmup;

		final CountDownLatch done = new CountDownLatch(1);

		final WorkCompletion[] batch = new WorkCompletion[4];

		QueuePair qp;

		SendWorkRequest ping;

		ReceiveWorkRequest pong;

		int count;

		long start;

		PingPongClient(int iterations, int warmup) {
			this.samples = new long[iterations];
			this.warmup = warmup;
		}

		void next() {
			this.start = System.nanoTime();
			this.qp.postRecv(this.pong);
			this.qp.postSend(this.ping);
		}

		void onCompletion(CompletionQueue cq) {
			drain(cq);
			cq.requestNotification();
			drain(cq);
		}

		private void drain(CompletionQueue cq) {
			int n;
			while ((n = cq.poll(this.batch)) > 0) {
				for (int i = 0; i < n; i++) {
					if (!this.batch[i].isSuccess()) {
						throw new IllegalStateException("Ping-pong failed: " + this.batch[i]);
					}
					long elapsed = System.nanoTime() - this.start;
					int index = this.count++ - this.warmup;
					if (index >= 0) {
						this.samples[index] = elapsed;
					}
					if (index + 1 >= this.samples.length) {
						this.done.countDown();
					}
					else {
						next();
					}
				}
			}
		}

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

	// ---- bandwidth ----------------------------------------------------------------------

	private static double socketBandwidth(int size) throws Exception {
		try (ServerSocketChannel server = ServerSocketChannel.open()) {
			server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
			Thread responder = new Thread(() -> {
				try (SocketChannel s = server.accept()) {
					ByteBuffer data = ByteBuffer.allocateDirect(size);
					ByteBuffer request = ByteBuffer.allocateDirect(8);
					while (true) {
						request.clear();
						while (request.hasRemaining()) {
							if (s.read(request) < 0) {
								return;
							}
						}
						data.clear();
						while (data.hasRemaining()) {
							s.write(data);
						}
					}
				}
				catch (IOException ex) {
					// client gone
				}
			}, "socket-responder");
			responder.setDaemon(true);
			responder.start();
			try (SocketChannel client = SocketChannel.open(server.getLocalAddress())) {
				ByteBuffer sink = ByteBuffer.allocateDirect(size);
				ByteBuffer request = ByteBuffer.allocateDirect(8 * DEPTH);
				long ops = Math.max(200, (512L << 20) / size);
				socketTransfers(client, sink, request, 64);
				double[] trials = new double[TRIALS];
				for (int t = 0; t < TRIALS; t++) {
					long start = System.nanoTime();
					socketTransfers(client, sink, request, ops);
					trials[t] = (double) ops * size / (System.nanoTime() - start);
				}
				Arrays.sort(trials);
				System.out.printf(Locale.ROOT, "plain socket 1 MiB transfers: median %.2f GB/s, best %.2f, worst %.2f%n",
						trials[TRIALS / 2], trials[TRIALS - 1], trials[0]);
				return trials[TRIALS / 2];
			}
		}
	}

	private static void socketTransfers(SocketChannel client, ByteBuffer sink, ByteBuffer request, long ops)
			throws IOException {
		long requested = 0;
		long received = 0;
		// Keep up to DEPTH requests outstanding, as the RDMA Read benchmark keeps DEPTH reads.
		while (received < ops) {
			int more = (int) Math.min(DEPTH - (requested - received), ops - requested);
			if (more > 0) {
				request.clear().limit(8 * more);
				while (request.hasRemaining()) {
					client.write(request);
				}
				requested += more;
			}
			sink.clear();
			while (sink.hasRemaining()) {
				client.read(sink);
			}
			received++;
		}
	}

	private static double readBandwidth(RdmaProvider serverProvider, RdmaProvider clientProvider, int size)
			throws Exception {
		ProtectionDomain serverPd = serverProvider.allocateProtectionDomain();
		MemoryRegion source = serverPd.registerMemory(ByteBuffer.allocateDirect(size), EnumSet.of(AccessFlag.REMOTE_READ));
		CompletionQueue serverCq = serverProvider.createCompletionQueue(64, null);
		QueuePair serverQp = serverProvider.createQueuePair(QueuePairAttributes.of(serverPd, serverCq));
		ProtectionDomain clientPd = clientProvider.allocateProtectionDomain();
		MemoryRegion sink = clientPd.registerMemory(ByteBuffer.allocateDirect(size), EnumSet.of(AccessFlag.LOCAL_WRITE));
		CompletionQueue clientCq = clientProvider.createCompletionQueue(DEPTH * 2, null);
		QueuePair clientQp = clientProvider
			.createQueuePair(QueuePairAttributes.of(clientPd, clientCq).withQueueDepths(DEPTH, 4));
		RdmaConnection connection = connect(serverProvider, clientProvider, serverQp, clientQp);
		SendWorkRequest read = SendWorkRequest.rdmaRead(1, source.remoteAddress(0), ScatterGatherEntry.of(sink));
		WorkCompletion[] batch = new WorkCompletion[DEPTH];
		long ops = Math.max(200, (512L << 20) / size);
		runReads(clientQp, clientCq, read, batch, 64);
		double[] trials = new double[TRIALS];
		for (int t = 0; t < TRIALS; t++) {
			long start = System.nanoTime();
			runReads(clientQp, clientCq, read, batch, ops);
			trials[t] = (double) ops * size / (System.nanoTime() - start);
		}
		Arrays.sort(trials);
		System.out.printf(Locale.ROOT, "siw RDMA Read 1 MiB: median %.2f GB/s, best %.2f, worst %.2f%n",
				trials[TRIALS / 2], trials[TRIALS - 1], trials[0]);
		connection.close();
		serverQp.close();
		clientQp.close();
		return trials[TRIALS / 2];
	}

	private static void runReads(QueuePair qp, CompletionQueue cq, SendWorkRequest read, WorkCompletion[] batch,
			long ops) {
		long posted = 0;
		long completed = 0;
		while (completed < ops) {
			while (posted < ops && posted - completed < DEPTH) {
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

	private static RdmaConnection connect(RdmaProvider serverProvider, RdmaProvider clientProvider, QueuePair serverQp,
			QueuePair clientQp) throws Exception {
		CompletableFuture<RdmaConnection> accepted = new CompletableFuture<>();
		try (RdmaListener listener = serverProvider.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
				(request) -> accepted.complete(request.accept(serverQp, PrivateData.EMPTY, null)))) {
			RdmaConnection connection = clientProvider
				.connect(clientQp, ConnectParameters.to(listener.localAddress()))
				.get(10, TimeUnit.SECONDS);
			accepted.get(10, TimeUnit.SECONDS);
			return connection;
		}
	}

	private static void report(String label, long[] sorted) {
		System.out.printf(Locale.ROOT, "%d-byte ping-pong, %s: p50 %.2f us, p90 %.2f us, p99 %.2f us (%d round trips)%n",
				MESSAGE, label, percentile(sorted, 0.5) / 1e3, percentile(sorted, 0.9) / 1e3,
				percentile(sorted, 0.99) / 1e3, sorted.length);
	}

	private static long percentile(long[] sorted, double p) {
		return sorted[(int) Math.min(sorted.length - 1, Math.round(p * (sorted.length - 1)))];
	}

}

package io.rpcrdma.verbs.siw;

import static io.rpcrdma.verbs.BenchmarkSupport.percentile;

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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
 * Measures the software iWARP provider against plain Java sockets on the same machine, in
 * the same run: 64-byte ping-pong latency (a blocking {@link Socket} echo vs siw Send/Recv)
 * and 1 MiB transfer bandwidth (1 MiB answers to pipelined 8-byte requests on a blocking
 * {@link SocketChannel} vs siw 1 MiB RDMA Reads re-posted from the completion handler, 16
 * in flight in both). Not a test; run with
 * <pre>
 * ./mvnw -q -pl rpcrdma-core -am test-compile
 * java -cp rpcrdma-verbs/target/classes:rpcrdma-siw/target/classes:rpcrdma-core/target/test-classes \
 *     io.rpcrdma.verbs.siw.SiwBenchmark [pingPongIterationsPerRound]
 * </pre>
 * The build machine is shared and its load changes from second to second, so the
 * measurements alternate: each of {@value #ROUNDS} rounds runs the socket ping-pong, the siw
 * ping-pong, a socket transfer trial and a siw Read trial, and the figures pool the rounds.
 * <p>
 * In both ping-pongs each side reacts to the other's message on a thread that was blocked
 * waiting for it: the socket client and echo server in {@code read}, the siw client and
 * server in their receive completion handlers, which run on the connections' receive
 * threads. Both clients time each round trip with {@code System.nanoTime}. siw Sends are
 * unsignaled, as RPC-over-RDMA implementations post them.
 */
public final class SiwBenchmark {

	private static final int MESSAGE = 64;

	private static final int ROUNDS = 7;

	private static final int DEPTH = 16;

	private static final int SIZE = 1 << 20;

	private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

	private SiwBenchmark() {
	}

	/**
	 * Runs the benchmark and prints the figures.
	 * @param args optionally the number of ping-pong iterations per round (default 20000)
	 * @throws Exception if something fails
	 */
	public static void main(String[] args) throws Exception {
		int iterations = (args.length > 0) ? Integer.parseInt(args[0]) : 20_000;
		System.out.printf(Locale.ROOT, "JDK %s (%s), %d processors, %s %s%n", System.getProperty("java.version"),
				System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors(),
				System.getProperty("os.name"), System.getProperty("os.arch"));
		long[] socketSamples = new long[0];
		long[] siwSamples = new long[0];
		double[] socketBandwidth = new double[ROUNDS];
		double[] siwBandwidth = new double[ROUNDS];
		try (SocketPingPong socket = new SocketPingPong();
				RdmaProvider serverProvider = RdmaProviders.open("siw", RdmaProviderConfig.defaults());
				RdmaProvider clientProvider = RdmaProviders.open("siw", RdmaProviderConfig.defaults());
				SocketTransfers transfers = new SocketTransfers()) {
			SiwPingPong siw = new SiwPingPong(serverProvider, clientProvider);
			SiwReads reads = new SiwReads(serverProvider, clientProvider);
			int warmup = Math.max(10_000, iterations / 2);
			socket.run(warmup);
			siw.run(new long[warmup]);
			transfers.trial(64);
			reads.trial(64);
			long ops = (512L << 20) / SIZE;
			long siwAllocated = 0;
			for (int round = 0; round < ROUNDS; round++) {
				socketSamples = concat(socketSamples, socket.run(iterations));
				long[] samples = new long[iterations];
				long before = BenchmarkSupport.allocatedBytes();
				siw.run(samples);
				siwAllocated += BenchmarkSupport.allocatedBytes() - before;
				siwSamples = concat(siwSamples, samples);
				socketBandwidth[round] = transfers.trial(ops);
				siwBandwidth[round] = reads.trial(ops);
			}
			System.out.printf(Locale.ROOT, "siw ping-pong allocation: %.2f bytes per round trip (all threads)%n",
					(double) siwAllocated / ((long) ROUNDS * iterations));
		}
		Arrays.sort(socketSamples);
		Arrays.sort(siwSamples);
		Arrays.sort(socketBandwidth);
		Arrays.sort(siwBandwidth);
		report("plain socket", socketSamples);
		report("siw Send/Recv", siwSamples);
		System.out.printf(Locale.ROOT, "ratio siw/socket: p50 %.2f, p99 %.2f%n",
				(double) percentile(siwSamples, 0.5) / percentile(socketSamples, 0.5),
				(double) percentile(siwSamples, 0.99) / percentile(socketSamples, 0.99));
		System.out.printf(Locale.ROOT, "1 MiB transfers, plain socket: median %.2f GB/s (best %.2f, worst %.2f)%n",
				socketBandwidth[ROUNDS / 2], socketBandwidth[ROUNDS - 1], socketBandwidth[0]);
		System.out.printf(Locale.ROOT, "1 MiB RDMA Reads, siw: median %.2f GB/s (best %.2f, worst %.2f)%n",
				siwBandwidth[ROUNDS / 2], siwBandwidth[ROUNDS - 1], siwBandwidth[0]);
		System.out.printf(Locale.ROOT, "ratio siw/socket bandwidth: median %.2f%n",
				siwBandwidth[ROUNDS / 2] / socketBandwidth[ROUNDS / 2]);
	}

	// ---- latency ------------------------------------------------------------------------

	/** A blocking socket echo: the reference for latency. */
	private static final class SocketPingPong implements AutoCloseable {

		private final ServerSocket server;

		private final Socket client;

		private final InputStream in;

		private final OutputStream out;

		private final byte[] message = new byte[MESSAGE];

		SocketPingPong() throws IOException {
			this.server = new ServerSocket(0, 1, LOOPBACK);
			Thread echo = new Thread(() -> {
				try (Socket s = this.server.accept()) {
					s.setTcpNoDelay(true);
					InputStream sin = s.getInputStream();
					OutputStream sout = s.getOutputStream();
					byte[] buffer = new byte[MESSAGE];
					while (readFully(sin, buffer)) {
						sout.write(buffer);
					}
				}
				catch (IOException ex) {
					// client gone
				}
			}, "socket-echo");
			echo.setDaemon(true);
			echo.start();
			this.client = new Socket(LOOPBACK, this.server.getLocalPort());
			this.client.setTcpNoDelay(true);
			this.in = this.client.getInputStream();
			this.out = this.client.getOutputStream();
		}

		long[] run(int iterations) throws IOException {
			long[] samples = new long[iterations];
			for (int i = 0; i < iterations; i++) {
				long start = System.nanoTime();
				this.out.write(this.message);
				readFully(this.in, this.message);
				samples[i] = System.nanoTime() - start;
			}
			return samples;
		}

		@Override
		public void close() throws IOException {
			this.client.close();
			this.server.close();
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

	/** siw Send/Recv ping-pong, both ends driven by completion handlers. */
	private static final class SiwPingPong {

		private final PingPongClient pinger = new PingPongClient();

		SiwPingPong(RdmaProvider serverProvider, RdmaProvider clientProvider) throws Exception {
			QueuePair serverQp = BenchmarkSupport.echoServer(serverProvider, MESSAGE);

			ProtectionDomain clientPd = clientProvider.allocateProtectionDomain();
			MemoryRegion request = clientPd.registerMemory(ByteBuffer.allocateDirect(MESSAGE),
					EnumSet.noneOf(AccessFlag.class));
			MemoryRegion response = clientPd.registerMemory(ByteBuffer.allocateDirect(MESSAGE),
					EnumSet.of(AccessFlag.LOCAL_WRITE));
			CompletionQueue clientSendCq = clientProvider.createCompletionQueue(1024, null);
			CompletionQueue clientRecvCq = clientProvider.createCompletionQueue(1024, this.pinger::onCompletion);
			QueuePair clientQp = clientProvider
				.createQueuePair(QueuePairAttributes.of(clientPd, clientSendCq, clientRecvCq));
			this.pinger.qp = clientQp;
			this.pinger.ping = SendWorkRequest.send(3, ScatterGatherEntry.of(request)).unsignaled();
			this.pinger.pong = ReceiveWorkRequest.of(4, ScatterGatherEntry.of(response));
			connect(serverProvider, clientProvider, serverQp, clientQp);
			clientRecvCq.requestNotification();
		}

		void run(long[] samples) throws InterruptedException {
			PingPongClient p = this.pinger;
			p.samples = samples;
			p.count = 0;
			p.done = new CountDownLatch(1);
			p.next();
			if (!p.done.await(5, TimeUnit.MINUTES)) {
				throw new IllegalStateException("siw ping-pong stalled after " + p.count + " round trips");
			}
		}

	}

	/**
	 * The siw ping-pong client, driven by its receive completion handler on the
	 * connection's receive thread, as the socket client is driven by a blocking read.
	 */
	private static final class PingPongClient {

		final WorkCompletion[] batch = new WorkCompletion[4];

		volatile CountDownLatch done;

		long[] samples;

		QueuePair qp;

		SendWorkRequest ping;

		ReceiveWorkRequest pong;

		int count;

		long start;

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
					this.samples[this.count++] = System.nanoTime() - this.start;
					if (this.count == this.samples.length) {
						this.done.countDown();
					}
					else {
						next();
					}
				}
			}
		}

	}

	// ---- bandwidth ----------------------------------------------------------------------

	/** 1 MiB answers to 8-byte requests over a blocking socket channel: the reference. */
	private static final class SocketTransfers implements AutoCloseable {

		private final ServerSocketChannel server;

		private final SocketChannel client;

		private final ByteBuffer sink = ByteBuffer.allocateDirect(SIZE);

		private final ByteBuffer request = ByteBuffer.allocateDirect(8 * DEPTH);

		SocketTransfers() throws IOException {
			this.server = ServerSocketChannel.open();
			this.server.bind(new InetSocketAddress(LOOPBACK, 0));
			Thread responder = new Thread(() -> {
				try (SocketChannel s = this.server.accept()) {
					ByteBuffer data = ByteBuffer.allocateDirect(SIZE);
					ByteBuffer ask = ByteBuffer.allocateDirect(8);
					while (true) {
						ask.clear();
						while (ask.hasRemaining()) {
							if (s.read(ask) < 0) {
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
			this.client = SocketChannel.open(this.server.getLocalAddress());
		}

		double trial(long ops) throws IOException {
			long start = System.nanoTime();
			long requested = 0;
			long received = 0;
			// Up to DEPTH requests outstanding, as the RDMA Read side keeps DEPTH reads.
			while (received < ops) {
				int more = (int) Math.min(DEPTH - (requested - received), ops - requested);
				if (more > 0) {
					this.request.clear().limit(8 * more);
					while (this.request.hasRemaining()) {
						this.client.write(this.request);
					}
					requested += more;
				}
				this.sink.clear();
				while (this.sink.hasRemaining()) {
					this.client.read(this.sink);
				}
				received++;
			}
			return (double) ops * SIZE / (System.nanoTime() - start);
		}

		@Override
		public void close() throws IOException {
			this.client.close();
			this.server.close();
		}

	}

	/**
	 * siw 1 MiB RDMA Reads, DEPTH in flight, re-posted from the completion handler (on the
	 * connection's receive thread) while the main thread waits, as the socket client waits
	 * in {@code read}.
	 */
	private static final class SiwReads {

		private final QueuePair clientQp;

		private final CompletionQueue clientCq;

		private final SendWorkRequest read;

		private final WorkCompletion[] batch = new WorkCompletion[DEPTH];

		private long posted;

		private long completed;

		private long ops;

		private volatile CountDownLatch done;

		SiwReads(RdmaProvider serverProvider, RdmaProvider clientProvider) throws Exception {
			ProtectionDomain serverPd = serverProvider.allocateProtectionDomain();
			MemoryRegion source = serverPd.registerMemory(ByteBuffer.allocateDirect(SIZE),
					EnumSet.of(AccessFlag.REMOTE_READ));
			CompletionQueue serverCq = serverProvider.createCompletionQueue(64, null);
			QueuePair serverQp = serverProvider.createQueuePair(QueuePairAttributes.of(serverPd, serverCq));
			ProtectionDomain clientPd = clientProvider.allocateProtectionDomain();
			MemoryRegion sink = clientPd.registerMemory(ByteBuffer.allocateDirect(SIZE),
					EnumSet.of(AccessFlag.LOCAL_WRITE));
			this.clientCq = clientProvider.createCompletionQueue(DEPTH * 2, this::onCompletion);
			this.clientQp = clientProvider
				.createQueuePair(QueuePairAttributes.of(clientPd, this.clientCq).withQueueDepths(DEPTH, 4));
			connect(serverProvider, clientProvider, serverQp, this.clientQp);
			this.read = SendWorkRequest.rdmaRead(1, source.remoteAddress(0), ScatterGatherEntry.of(sink));
		}

		double trial(long count) throws InterruptedException {
			this.ops = count;
			this.posted = 0;
			this.completed = 0;
			this.done = new CountDownLatch(1);
			long start = System.nanoTime();
			synchronized (this) {
				this.clientCq.requestNotification();
				postMore();
			}
			if (!this.done.await(5, TimeUnit.MINUTES)) {
				throw new IllegalStateException("RDMA Reads stalled after " + this.completed);
			}
			return (double) count * SIZE / (System.nanoTime() - start);
		}

		private synchronized void onCompletion(CompletionQueue cq) {
			drain(cq);
			if (this.completed < this.ops) {
				cq.requestNotification();
				drain(cq);
			}
		}

		private void drain(CompletionQueue cq) {
			int n;
			while ((n = cq.poll(this.batch)) > 0) {
				for (int i = 0; i < n; i++) {
					if (!this.batch[i].isSuccess()) {
						throw new IllegalStateException("RDMA Read failed: " + this.batch[i]);
					}
				}
				this.completed += n;
				if (this.completed == this.ops) {
					this.done.countDown();
					return;
				}
				postMore();
			}
		}

		private void postMore() {
			while (this.posted < this.ops && this.posted - this.completed < DEPTH) {
				this.clientQp.postSend(this.read);
				this.posted++;
			}
		}

	}

	private static RdmaConnection connect(RdmaProvider serverProvider, RdmaProvider clientProvider, QueuePair serverQp,
			QueuePair clientQp) throws Exception {
		return BenchmarkSupport.connect(serverProvider, clientProvider, serverQp, clientQp,
				new InetSocketAddress(LOOPBACK, 0));
	}

	private static long[] concat(long[] a, long[] b) {
		long[] all = Arrays.copyOf(a, a.length + b.length);
		System.arraycopy(b, 0, all, a.length, b.length);
		return all;
	}

	private static void report(String label, long[] sorted) {
		System.out.printf(Locale.ROOT, "%d-byte ping-pong, %s: p50 %.2f us, p90 %.2f us, p99 %.2f us (%d round trips)%n",
				MESSAGE, label, percentile(sorted, 0.5) / 1e3, percentile(sorted, 0.9) / 1e3,
				percentile(sorted, 0.99) / 1e3, sorted.length);
	}

}

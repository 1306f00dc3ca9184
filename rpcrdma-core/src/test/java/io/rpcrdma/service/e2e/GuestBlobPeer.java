package io.rpcrdma.service.e2e;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.rpcrdma.client.ConnectionLostException;
import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.RpcClient;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.memory.OutstandingLease;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.service.ServiceClientFactory;
import io.rpcrdma.service.ServiceClientOptions;
import io.rpcrdma.service.ServiceExporter;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.transport.TransportStats;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.disni.DisniTestDevice;

/**
 * One side of a {@link Blobs} exchange between two machines, run as its own JVM: the interop
 * lab starts it in the guest on the {@code disni} provider, against rpcrdma's software iWARP
 * provider on the host (docs/interop.md, "DiSNI on Linux's devices").
 * <ul>
 * <li>{@code serve <provider> <address> <port>} serves {@link Blobs} until the JVM is told to
 * stop; it prints {@code PEER listening} when ready and, when stopping, its server's transport
 * counters and the leases its pool still holds.</li>
 * <li>{@code call <provider> <address> <port> <size>...} stores and fetches one blob of each
 * size (Read chunks out, Write chunks back), sends a text long enough for a long call and a Reply
 * chunk, checks every byte, prints its counters and exits 0, or prints the failure and exits 1.</li>
 * <li>{@code serve-stalling <provider> <address> <port>} serves like {@code serve}, but a put
 * whose key starts with {@code stall} never returns: it prints {@code PEER stalled <n>} (n
 * counting such calls) and waits for the process to be killed.</li>
 * <li>{@code stall <provider> <address> <port> <n>} sends n such puts at once (1 KiB inline and
 * 1 MiB in a Read chunk, alternately) and waits for their outcomes: it exits 0 printing
 * {@code PEER lost <n> of <n>} if every one failed with {@link ConnectionLostException}
 * (the server died), 1 otherwise, each outcome on a {@code PEER outcome} line.</li>
 * </ul>
 * {@code <provider>} is {@code disni} (on the device {@link DisniTestDevice} picks) or {@code siw}.
 */
public final class GuestBlobPeer {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	private GuestBlobPeer() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length < 4 || !List.of("serve", "serve-stalling", "call", "stall").contains(args[0])) {
			System.err.println("usage: serve|serve-stalling|call|stall <disni|siw> <address> <port> [<size>...|<n>]");
			System.exit(2);
		}
		InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(args[2]), Integer.parseInt(args[3]));
		try (RdmaProvider provider = open(args[1])) {
			RegisteredMemoryPool pool = pools(provider);
			if (args[0].startsWith("serve")) {
				// Returns only once a shutdown has begun, which then ends the JVM.
				serve(provider, pool, address, args[0].equals("serve") ? new BlobService() : new StallingBlobService());
				return;
			}
			int status = args[0].equals("stall") ? stall(provider, pool, address, Integer.parseInt(args[4]))
					: call(provider, pool, address, Arrays.stream(args, 4, args.length).mapToInt(Integer::parseInt).toArray());
			printLeases(pool);
			System.exit(status);
		}
	}

	/**
	 * Prints how many leases the pool still holds, with the sites of a few, once the
	 * connections' teardown has had a moment to release them.
	 */
	private static void printLeases(RegisteredMemoryPool pool) throws InterruptedException {
		List<OutstandingLease> leases = awaitReleased(pool);
		System.out.println("PEER leases " + leases.size());
		leases.stream().limit(3).forEach((lease) -> System.out.println("PEER lease " + lease.sizeClass() + " "
				+ lease.leaseSite().stream().limit(12).map(String::valueOf).toList()));
		System.out.flush();
	}

	/**
	 * Waits up to 10 s for a pool's leases to come back: a connection that closed or failed
	 * releases its receive buffers as their flush completions arrive, after
	 * {@code RpcServer#shutdown} and {@code RpcClientPool#close} have returned.
	 * @param pool the pool
	 * @return the leases still outstanding then
	 * @throws InterruptedException if interrupted while waiting
	 */
	public static List<OutstandingLease> awaitReleased(RegisteredMemoryPool pool) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!pool.leaks().isEmpty() && System.nanoTime() < deadline) {
			Thread.sleep(20);
		}
		return pool.leaks();
	}

	private static RdmaProvider open(String name) {
		return name.equals("disni") ? DisniTestDevice.open() : RdmaProviders.open(name);
	}

	private static void serve(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress address,
			BlobService service) throws Exception {
		RpcServer server = startServer(provider, pool, address, service);
		CountDownLatch stop = new CountDownLatch(1);
		CountDownLatch stopped = new CountDownLatch(1);
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			stop.countDown();
			try {
				stopped.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "peer-stop"));
		System.out.println("PEER listening " + server.localAddress());
		System.out.flush();
		stop.await();
		TransportStats stats = server.transportStats();
		server.shutdown(Duration.ofSeconds(5)).get(30, TimeUnit.SECONDS);
		print(stats);
		printLeases(pool);
		stopped.countDown();
	}

	/**
	 * Serves {@link Blobs}.
	 * @param provider the provider to listen on
	 * @param pool its registered memory, from {@link #pools()}
	 * @param address where to listen
	 * @return the running server
	 */
	public static RpcServer startServer(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress address) {
		return startServer(provider, pool, address, new BlobService());
	}

	private static RpcServer startServer(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress address,
			BlobService service) {
		ProgramRegistry registry = new ProgramRegistry();
		new ServiceExporter(new ServiceIntrospector(CodecRegistry.standard()), registry).export(service);
		return RpcServer.start(RpcServer.Config.defaults(provider, pool, address)
			.withTransport(BlobSetup.transport())
			.withExecutor(new RpcServer.ExecutorSpec(RpcServer.ExecutorKind.BOUNDED_POOL, 4, 16)), registry);
	}

	/**
	 * Opens a pool of memory big enough for the largest blob.
	 * @param provider the provider
	 * @return the pool, leak tracking on
	 */
	public static RegisteredMemoryPool pools(RdmaProvider provider) {
		return new RegisteredMemoryPool(provider.allocateProtectionDomain(), BlobSetup.pools(false));
	}

	/**
	 * Connects to a {@link Blobs} server.
	 * @param provider the provider to connect with
	 * @param pool its registered memory, from {@link #pools(RdmaProvider)}
	 * @param address the server
	 * @return one connection
	 */
	public static RpcClientPool connect(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress address) {
		return RpcClientPool.connect(provider, pool, address, BlobSetup.transport(), 16, RpcClientPool.Config.of(1, 1));
	}

	/**
	 * Opens one connection to a {@link Blobs} server, without a pool: it completes once the
	 * connection is up (or failed), so a caller can bound how many are being opened at once.
	 * @param provider the provider to connect with
	 * @param pool its registered memory, from {@link #pools(RdmaProvider)}
	 * @param address the server
	 * @return the connection, once established
	 */
	public static CompletableFuture<RpcClient> open(RdmaProvider provider, RegisteredMemoryPool pool,
			InetSocketAddress address) {
		return RpcClient.connect(provider, pool, address, BlobSetup.transport(), 16);
	}

	/**
	 * A {@link Blobs} client.
	 * @param connections the connection to the server
	 * @return the client, with this peer's deadline
	 */
	public static Blobs blobs(RpcCaller connections) {
		return new ServiceClientFactory(new ServiceIntrospector(CodecRegistry.standard()))
			.create(Blobs.class, connections, ServiceClientOptions.DEFAULTS.withTimeout(DEADLINE));
	}

	/**
	 * Stores and fetches one blob of each size, and echoes a text long enough for a long call
	 * and a Reply chunk, checking every byte.
	 * @param connections the connection to the server
	 * @param sizes the blobs' sizes
	 * @return what went wrong, empty if nothing
	 */
	public static List<String> exchange(RpcClientPool connections, int[] sizes) {
		Blobs blobs = blobs(connections);
		List<String> problems = new ArrayList<>();
		if (!"hello".equals(blobs.echo("hello"))) {
			problems.add("echo");
		}
		for (int i = 0; i < sizes.length; i++) {
			byte[] data = ServiceEndToEndTests.pattern(sizes[i], 7 + i);
			progress("put " + sizes[i]);
			if (blobs.put("k" + i, data) != BlobService.crc(ByteBuffer.wrap(data))) {
				problems.add("put of " + sizes[i] + " bytes: the server's checksum differs");
			}
			progress("get " + sizes[i]);
			if (!Arrays.equals(blobs.get("k" + i), data)) {
				problems.add("get of " + sizes[i] + " bytes: the data differs");
			}
		}
		progress("blobs done");
		// Far over the inline threshold both ways, within the 64 KiB reply a client makes room for:
		// a long call out (a position-zero Read chunk), a Reply chunk back.
		String text = "x".repeat(40_000) + "end";
		if (!text.equals(blobs.echo(text))) {
			problems.add("long echo");
		}
		return problems;
	}

	/**
	 * Notes the step an exchange in a lab guest begins in the guest's kernel log, which its
	 * serial console carries to the host's console log: that stays readable when the guest's
	 * network does not, as in a run whose guest stopped transmitting (docs/interop.md).
	 * Nothing outside a lab guest job ({@code -Drpcrdma.lab.job}).
	 */
	private static void progress(String step) {
		String job = System.getProperty("rpcrdma.lab.job");
		if (job == null) {
			return;
		}
		try {
			Files.writeString(Path.of("/dev/kmsg"), "rpcrdma-lab " + job + ": " + step + "\n",
					StandardOpenOption.WRITE, StandardOpenOption.APPEND);
		}
		catch (IOException | RuntimeException ex) {
			// A diagnostic only.
		}
	}

	private static int call(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress address, int[] sizes) {
		try (RpcClientPool connections = connect(provider, pool, address)) {
			List<String> problems = exchange(connections, sizes);
			print(connections.connections().get(0).transport().stats());
			if (!problems.isEmpty()) {
				System.out.println("PEER failed " + problems);
				return 1;
			}
			System.out.println("PEER ok " + (sizes.length * 2 + 2) + " calls");
			return 0;
		}
		catch (RuntimeException ex) {
			System.out.println("PEER failed " + ex);
			ex.printStackTrace(System.out);
			return 1;
		}
	}

	/**
	 * Sends n puts the server never answers and waits until the server's death ends them.
	 */
	private static int stall(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress address, int n)
			throws InterruptedException {
		try (RpcClientPool connections = connect(provider, pool, address)) {
			// Longer than the lab waits for the server to be killed: a call that fails by its
			// timeout was never told the connection died, which is what the lab checks.
			Blobs blobs = new ServiceClientFactory(new ServiceIntrospector(CodecRegistry.standard()))
				.create(Blobs.class, connections, ServiceClientOptions.DEFAULTS.withTimeout(Duration.ofMinutes(4)));
			blobs.echo("connect");
			List<CompletableFuture<Long>> calls = new ArrayList<>();
			for (int i = 0; i < n; i++) {
				byte[] data = ServiceEndToEndTests.pattern(i % 2 == 0 ? 1024 : 1 << 20, i);
				String key = "stall-" + i;
				calls.add(CompletableFuture.supplyAsync(() -> blobs.put(key, data), runnable -> {
					Thread thread = new Thread(runnable, "stalled-call-" + key);
					thread.setDaemon(true);
					thread.start();
				}));
			}
			int lost = 0;
			for (CompletableFuture<Long> call : calls) {
				Throwable failure = null;
				try {
					call.join();
				}
				catch (CompletionException ex) {
					failure = ex.getCause();
				}
				boolean connectionLost = causedByConnectionLoss(failure);
				lost += connectionLost ? 1 : 0;
				System.out.println("PEER outcome " + (failure == null ? "answered" : failure));
			}
			System.out.println("PEER lost " + lost + " of " + n);
			return lost == n ? 0 : 1;
		}
	}

	private static boolean causedByConnectionLoss(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof ConnectionLostException) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A {@link BlobService} whose puts of {@code stall} keys never return, for a server killed
	 * while calls are outstanding.
	 */
	static final class StallingBlobService extends BlobService {

		private final AtomicInteger stalled = new AtomicInteger();

		private final CountDownLatch never = new CountDownLatch(1);

		@Override
		public long put(String key, byte[] data) {
			if (!key.startsWith("stall")) {
				return super.put(key, data);
			}
			System.out.println("PEER stalled " + this.stalled.incrementAndGet());
			System.out.flush();
			try {
				this.never.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			throw new IllegalStateException("the stalled put of " + key + " was interrupted");
		}

	}

	/**
	 * The counters the lab compares, on one line.
	 * @param stats a transport's counters
	 * @return {@code PEER stats name=value ...}
	 */
	public static String describe(TransportStats stats) {
		return "PEER stats readChunksSent=" + stats.readChunksSent() + " readChunksPulled=" + stats.readChunksPulled()
				+ " writeChunksFilled=" + stats.writeChunksFilled() + " replyChunksFilled=" + stats.replyChunksFilled()
				+ " positionZeroChunksSent=" + stats.positionZeroChunksSent() + " rdmaErrorsSent="
				+ stats.rdmaErrorsSent() + " rdmaErrorsReceived=" + stats.rdmaErrorsReceived();
	}

	private static void print(TransportStats stats) {
		System.out.println(describe(stats));
	}

}

package io.rpcrdma.service.e2e;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.rpcrdma.client.RpcClientPool;
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
 * </ul>
 * {@code <provider>} is {@code disni} (on the device {@link DisniTestDevice} picks) or {@code siw}.
 */
public final class GuestBlobPeer {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	private GuestBlobPeer() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length < 4 || !List.of("serve", "call").contains(args[0])) {
			System.err.println("usage: serve|call <disni|siw> <address> <port> [<size>...]");
			System.exit(2);
		}
		InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(args[2]), Integer.parseInt(args[3]));
		try (RdmaProvider provider = open(args[1])) {
			RegisteredMemoryPool pool = pools(provider);
			if (args[0].equals("serve")) {
				// Returns only once a shutdown has begun, which then ends the JVM.
				serve(provider, pool, address);
				return;
			}
			int status = call(provider, pool, address,
					Arrays.stream(args, 4, args.length).mapToInt(Integer::parseInt).toArray());
			System.out.println("PEER leases " + pool.leaks().size());
			System.out.flush();
			System.exit(status);
		}
	}

	private static RdmaProvider open(String name) {
		return name.equals("disni") ? DisniTestDevice.open() : RdmaProviders.open(name);
	}

	private static void serve(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress address)
			throws Exception {
		RpcServer server = startServer(provider, pool, address);
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
		System.out.println("PEER leases " + pool.leaks().size());
		System.out.flush();
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
		ProgramRegistry registry = new ProgramRegistry();
		new ServiceExporter(new ServiceIntrospector(CodecRegistry.standard()), registry).export(new BlobService());
		return RpcServer.start(RpcServer.Config.defaults(provider, pool, address)
			.withTransport(BlobSetup.transport())
			.withExecutor(new RpcServer.ExecutorSpec(RpcServer.ExecutorKind.BOUNDED_POOL, 2, 16)), registry);
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
	 * Stores and fetches one blob of each size, and echoes a text long enough for a long call
	 * and a Reply chunk, checking every byte.
	 * @param connections the connection to the server
	 * @param sizes the blobs' sizes
	 * @return what went wrong, empty if nothing
	 */
	public static List<String> exchange(RpcClientPool connections, int[] sizes) {
		Blobs blobs = new ServiceClientFactory(new ServiceIntrospector(CodecRegistry.standard()))
			.create(Blobs.class, connections, ServiceClientOptions.DEFAULTS.withTimeout(DEADLINE));
		List<String> problems = new ArrayList<>();
		if (!"hello".equals(blobs.echo("hello"))) {
			problems.add("echo");
		}
		for (int i = 0; i < sizes.length; i++) {
			byte[] data = ServiceEndToEndTests.pattern(sizes[i], 7 + i);
			if (blobs.put("k" + i, data) != BlobService.crc(ByteBuffer.wrap(data))) {
				problems.add("put of " + sizes[i] + " bytes: the server's checksum differs");
			}
			if (!Arrays.equals(blobs.get("k" + i), data)) {
				problems.add("get of " + sizes[i] + " bytes: the data differs");
			}
		}
		// Far over the inline threshold both ways: a long call out, a Reply chunk back.
		String text = "x".repeat(200_000) + "end";
		if (!text.equals(blobs.echo(text))) {
			problems.add("long echo");
		}
		return problems;
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

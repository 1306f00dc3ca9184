package io.rpcrdma.service.e2e;

import static io.rpcrdma.verbs.BenchmarkSupport.percentile;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.memory.MemoryPoolStats;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.service.ServiceClientFactory;
import io.rpcrdma.service.ServiceClientOptions;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.disni.DisniProviderFactory;
import io.rpcrdma.verbs.disni.DisniRegistrationStats;
import io.rpcrdma.verbs.disni.DisniSettings;

/**
 * The figures docs/hardware.md and docs/providers.md quote for real devices, measured side by
 * side in one JVM so that their ratios hold on a shared, noisy machine: for each target
 * ({@code <provider>@<address>}: {@code disni@10.77.0.1} is DiSNI on Soft-RoCE,
 * {@code disni-rotation@10.77.0.1} the same with memory windows switched off,
 * {@code disni@10.0.2.15} DiSNI on Linux's siw, {@code siw@10.0.2.15} rpcrdma's software iWARP),
 * a {@link Blobs} client and server in this JVM measure
 * <ul>
 * <li>the 64-byte call: {@code checksum} of 64 bytes (a {@code long} back), p50 and p99 over
 * {@value #SMALL_CALLS} calls; and {@code echo} of 64 characters, whose {@code String} result
 * has no bound, so that the client offers a Reply chunk with each call;</li>
 * <li>1 MiB bulk: {@code put} (a Read chunk the server pulls) and {@code get} (a Write chunk
 * the server fills), {@value #BULK_CALLS} calls each, in MB/s of payload;</li>
 * <li>for {@code disni}, the {@code ibv_reg_mr} calls each kind of call cost
 * ({@link DisniRegistrationStats}).</li>
 * </ul>
 * Targets take turns, {@code rounds} times; the medians per target and the ratios to the last
 * target are printed last. Usage: {@code DeviceFigures <rounds> <target>...}. The interop lab
 * runs it in its guest ({@code DisniLabTest#figuresOnRealDevicesSideBySide}).
 */
public final class DeviceFigures {

	static final int SMALL_CALLS = 1000;

	static final int BULK_CALLS = 16;

	private static final int MIB = 1 << 20;

	/** The target name of {@code disni} with memory windows switched off. */
	public static final String ROTATION = "disni-rotation";

	/** The JVM property that switches the disni provider's memory windows off (docs/hardware.md). */
	private static final String MEMORY_WINDOWS_PROPERTY = "rpcrdma.disni.memory-windows";

	private DeviceFigures() {
	}

	/**
	 * One target's figures of one round.
	 * @param p50Micros the 64-byte call's median, in microseconds
	 * @param p99Micros its 99th percentile
	 * @param unboundedP50Micros the median of a 64-byte call whose result has no XDR bound, for
	 * which the client offers a Reply chunk (RFC 8166 §3.5.4)
	 * @param putMBps 1 MiB puts, MB/s
	 * @param getMBps 1 MiB gets, MB/s
	 * @param regMrPerSmallCall {@code ibv_reg_mr} calls per 64-byte call beyond those that grew the
	 * pools (a buffer's first registration, and its second when first offered through a memory
	 * window): what the calls themselves cost in the steady state (-1: not a disni target)
	 * @param regMrPerUnboundedCall the same per call with an unbounded result
	 * @param regMrPerBulkCall {@code ibv_reg_mr} calls per 1 MiB call (-1: not a disni target)
	 * @param memoryWindows whether the provider offered advertised chunks through memory windows
	 */
	record Figures(double p50Micros, double p99Micros, double unboundedP50Micros, double putMBps, double getMBps,
			double regMrPerSmallCall, double regMrPerUnboundedCall, double regMrPerBulkCall, boolean memoryWindows) {

		String describe() {
			return String.format(Locale.ROOT,
					"p50_us=%.1f p99_us=%.1f unbounded_p50_us=%.1f put_MBps=%.1f get_MBps=%.1f regmr_per_small_call=%.3f "
							+ "regmr_per_unbounded_call=%.3f regmr_per_bulk_call=%.3f memory_windows=%b",
					this.p50Micros, this.p99Micros, this.unboundedP50Micros, this.putMBps, this.getMBps,
					this.regMrPerSmallCall, this.regMrPerUnboundedCall, this.regMrPerBulkCall, this.memoryWindows);
		}

	}

	public static void main(String[] args) throws Exception {
		if (args.length < 2) {
			System.err.println("usage: DeviceFigures <rounds> <provider>@<address>...");
			System.exit(2);
		}
		int rounds = Integer.parseInt(args[0]);
		List<String> targets = Arrays.asList(args).subList(1, args.length);
		Map<String, List<Figures>> results = new LinkedHashMap<>();
		for (int round = 1; round <= rounds; round++) {
			for (String target : targets) {
				Figures figures = measure(target);
				results.computeIfAbsent(target, (t) -> new ArrayList<>()).add(figures);
				System.out.println("FIGURE " + target + " round=" + round + " " + figures.describe());
				System.out.flush();
			}
		}
		Figures reference = median(results.get(targets.get(targets.size() - 1)));
		for (String target : targets) {
			Figures median = median(results.get(target));
			System.out.println("FIGURES " + target + " median " + median.describe()
					+ String.format(Locale.ROOT, " p50_ratio=%.2f put_ratio=%.2f get_ratio=%.2f",
							median.p50Micros() / reference.p50Micros(), median.putMBps() / reference.putMBps(),
							median.getMBps() / reference.getMBps()));
		}
		System.out.flush();
		System.exit(0);
	}

	private static Figures measure(String target) throws Exception {
		String[] parts = target.split("@", 2);
		InetAddress address = InetAddress.getByName(parts[1]);
		try (RdmaProvider provider = open(parts[0], parts[1]);
				RegisteredMemoryPool serverPool = GuestBlobPeer.pools(provider);
				RegisteredMemoryPool clientPool = GuestBlobPeer.pools(provider)) {
			RpcServer server = GuestBlobPeer.startServer(provider, serverPool, new InetSocketAddress(address, 0));
			Figures figures;
			try (RpcClientPool connections = GuestBlobPeer.connect(provider, clientPool, server.localAddress())) {
				Blobs blobs = new ServiceClientFactory(new ServiceIntrospector(CodecRegistry.standard()))
					.create(Blobs.class, connections, ServiceClientOptions.DEFAULTS.withTimeout(Duration.ofMinutes(1)));
				figures = measure(provider, blobs, clientPool, serverPool);
			}
			finally {
				server.shutdown(Duration.ofSeconds(5)).get();
			}
			check(GuestBlobPeer.awaitReleased(clientPool).isEmpty(), "the client pool's leases");
			check(GuestBlobPeer.awaitReleased(serverPool).isEmpty(), "the server pool's leases");
			System.out.println("POOLS " + target + " client " + describe(clientPool.stats()) + " server "
					+ describe(serverPool.stats()) + " " + DisniRegistrationStats.of(provider).map(Object::toString).orElse(""));
			return figures;
		}
	}

	private static Figures measure(RdmaProvider provider, Blobs blobs, RegisteredMemoryPool clientPool,
			RegisteredMemoryPool serverPool) {
		ByteBuffer small = ByteBuffer.wrap(ServiceEndToEndTests.pattern(64, 5));
		long smallCrc = BlobService.crc(small);
		String text = "x".repeat(64);
		byte[] data = ServiceEndToEndTests.pattern(MIB, 11);
		// Warm-up: the JIT, the pools' first registrations, the connection's credits.
		for (int i = 0; i < SMALL_CALLS / 4; i++) {
			check(blobs.checksum(small.duplicate()) == smallCrc, "checksum");
			check(text.equals(blobs.echo(text)), "echo");
		}
		// As many bulk calls as are measured: a chunk buffer comes back to its pool only when its
		// memory window's invalidation completes, so the pools grow until they cover that.
		for (int i = 0; i < BULK_CALLS; i++) {
			blobs.put("warm", data);
			check(blobs.get("warm").length == MIB, "get");
		}
		Registrations before = Registrations.of(provider, clientPool, serverPool);
		long[] samples = new long[SMALL_CALLS];
		for (int i = 0; i < SMALL_CALLS; i++) {
			ByteBuffer argument = small.duplicate();
			long start = System.nanoTime();
			long crc = blobs.checksum(argument);
			samples[i] = System.nanoTime() - start;
			check(crc == smallCrc, "checksum");
		}
		Registrations afterSmall = Registrations.of(provider, clientPool, serverPool);
		long[] unbounded = new long[SMALL_CALLS / 4];
		for (int i = 0; i < unbounded.length; i++) {
			long start = System.nanoTime();
			String echoed = blobs.echo(text);
			unbounded[i] = System.nanoTime() - start;
			check(text.equals(echoed), "echo");
		}
		Registrations afterUnbounded = Registrations.of(provider, clientPool, serverPool);
		long putStart = System.nanoTime();
		for (int i = 0; i < BULK_CALLS; i++) {
			blobs.put("b", data);
		}
		long putNanos = System.nanoTime() - putStart;
		long getStart = System.nanoTime();
		for (int i = 0; i < BULK_CALLS; i++) {
			check(blobs.get("b").length == MIB, "get");
		}
		long getNanos = System.nanoTime() - getStart;
		check(Arrays.equals(blobs.get("b"), data), "the blob's contents");
		Registrations afterBulk = Registrations.of(provider, clientPool, serverPool);
		Arrays.sort(samples);
		Arrays.sort(unbounded);
		double bytes = (double) BULK_CALLS * MIB;
		return new Figures(percentile(samples, 0.50) / 1e3, percentile(samples, 0.99) / 1e3,
				percentile(unbounded, 0.50) / 1e3, bytes / putNanos * 1e3, bytes / getNanos * 1e3,
				perCall(afterSmall, before, SMALL_CALLS), perCall(afterUnbounded, afterSmall, unbounded.length),
				// The last get, which checked the contents, is a bulk call too.
				perCall(afterBulk, afterUnbounded, 2 * BULK_CALLS + 1), DisniRegistrationStats.memoryWindows(provider));
	}

	/** The classes that hold buffers: how many, and how many leases waited. */
	private static String describe(MemoryPoolStats stats) {
		return stats.sizeClasses().stream()
			.filter((each) -> each.buffers() > 0)
			.map((each) -> each.name() + "=" + each.buffers() + "/" + each.leases() + "/" + each.leaseWaits())
			.collect(java.util.stream.Collectors.joining(",", "[", "]")) + " registrations=" + stats.registrations();
	}

	private static double perCall(Registrations after, Registrations before, int calls) {
		return after.perCall(before, calls);
	}

	/**
	 * A provider's registrations with what explains them apart from the calls themselves: the
	 * pools' growth (a new buffer registers once, an advertised one again when it is first
	 * offered through a memory window, which it then gets once).
	 */
	private record Registrations(DisniRegistrationStats provider, long poolRegistrations) {

		static Registrations of(RdmaProvider provider, RegisteredMemoryPool... pools) {
			long grown = 0;
			for (RegisteredMemoryPool pool : pools) {
				grown += pool.stats().registrations();
			}
			return new Registrations(DisniRegistrationStats.of(provider).orElse(null), grown);
		}

		/** {@code ibv_reg_mr} per call beyond the pools' growth; -1 for a provider that registers nothing. */
		double perCall(Registrations earlier, int calls) {
			if (this.provider == null) {
				return -1;
			}
			DisniRegistrationStats made = this.provider.since(earlier.provider);
			long growth = (this.poolRegistrations - earlier.poolRegistrations) + made.windowAllocations();
			return (double) (made.registrations() - growth) / calls;
		}

	}

	/**
	 * Opens a target's provider; {@value #ROTATION} is {@code disni} with memory windows switched
	 * off, what a device without them (or a stock libdisni) does: the "before" of the windows.
	 */
	private static RdmaProvider open(String name, String address) {
		if (name.equals(ROTATION)) {
			System.setProperty(MEMORY_WINDOWS_PROPERTY, "false");
			try {
				return open(DisniProviderFactory.NAME, address);
			}
			finally {
				System.clearProperty(MEMORY_WINDOWS_PROPERTY);
			}
		}
		if (name.equals(DisniProviderFactory.NAME)) {
			return RdmaProviders.open(name, RdmaProviderConfig.defaults().with(DisniSettings.LOCAL_ADDRESS, address));
		}
		return RdmaProviders.open(name);
	}

	private static Figures median(List<Figures> rounds) {
		return new Figures(median(rounds, Figures::p50Micros), median(rounds, Figures::p99Micros),
				median(rounds, Figures::unboundedP50Micros), median(rounds, Figures::putMBps),
				median(rounds, Figures::getMBps), median(rounds, Figures::regMrPerSmallCall),
				median(rounds, Figures::regMrPerUnboundedCall), median(rounds, Figures::regMrPerBulkCall),
				rounds.get(0).memoryWindows());
	}

	private static double median(List<Figures> rounds, java.util.function.ToDoubleFunction<Figures> figure) {
		double[] values = rounds.stream().mapToDouble(figure).sorted().toArray();
		return values[values.length / 2];
	}

	private static void check(boolean ok, String what) {
		if (!ok) {
			throw new IllegalStateException(what + " came back wrong");
		}
	}

}

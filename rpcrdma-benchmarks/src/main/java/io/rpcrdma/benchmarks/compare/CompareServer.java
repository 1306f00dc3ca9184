package io.rpcrdma.benchmarks.compare;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import io.rpcrdma.benchmarks.Calculator;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.MemoryPoolStats;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.server.security.SecurityPolicy;
import io.rpcrdma.service.ServiceExporter;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.transport.ConnectionLimits;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * The benchmarks' server over an RDMA provider, serving {@link BenchService} (the comparison)
 * and {@link Calculator} (the small-call benchmarks), in the benchmark's JVM or, through
 * {@link #main}, in a process of its own ({@link ServerProcess}); {@link #main} runs the socket
 * and gRPC contenders' servers too, for {@link Growth}'s idle connections. Handlers run on the
 * transport's receive thread (DIRECT): they never block, and the gRPC server runs its
 * handlers on its event loop alike.
 */
public final class CompareServer implements AutoCloseable {

	/** The argument of {@link #main} for the library's default settings. */
	static final String LIBRARY_DEFAULTS = "--library-defaults";

	/** The prefix of a provider setting on {@link #main}'s command line. */
	static final String PROVIDER_SETTING = "--provider:";

	/** The prefix of the contender whose server {@link #main} runs ({@link Contenders} names). */
	static final String CONTENDER = "--contender:";

	/** The contenders whose servers {@link #main} runs. */
	static final List<String> CONTENDERS = List.of(Contenders.SOCKET, Contenders.GRPC, Contenders.SIW);

	private final RdmaProvider provider;

	private final RegisteredMemoryPool pool;

	private BenchServiceImpl service;

	private final RpcServer server;

	/**
	 * Starts a server.
	 * @param providerName the RDMA provider
	 * @param bind where to listen
	 */
	public CompareServer(String providerName, InetSocketAddress bind) {
		this(providerName, bind, SecurityPolicy.permitAll());
	}

	/**
	 * Starts a server with a security policy (RPCSEC_GSS flavors, for their cost).
	 * @param providerName the RDMA provider
	 * @param bind where to listen
	 * @param security the policy
	 */
	public CompareServer(String providerName, InetSocketAddress bind, SecurityPolicy security) {
		this(providerName, bind, security, false, RdmaProviderConfig.defaults());
	}

	/**
	 * Starts a server whose provider has settings of its own (an A/B of one setting).
	 * @param providerName the RDMA provider
	 * @param bind where to listen
	 * @param providerSettings the provider's settings
	 */
	public CompareServer(String providerName, InetSocketAddress bind, RdmaProviderConfig providerSettings) {
		this(providerName, bind, SecurityPolicy.permitAll(), false, providerSettings);
	}

	/**
	 * @param providerName the RDMA provider
	 * @param bind where to listen
	 * @param security the policy
	 * @param libraryDefaults whether the transport and the memory pool have the library's
	 * defaults (what a user's server has) rather than the benchmarks' credits and chunk sizes
	 * @param providerSettings the provider's settings
	 */
	private CompareServer(String providerName, InetSocketAddress bind, SecurityPolicy security, boolean libraryDefaults,
			RdmaProviderConfig providerSettings) {
		this.provider = RdmaProviders.open(providerName, providerSettings);
		RegisteredMemoryPool memory = null;
		try {
			memory = new RegisteredMemoryPool(this.provider.allocateProtectionDomain(), libraryDefaults
					? MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2) : RpcRdmaSetup.pools());
			ProgramRegistry registry = new ProgramRegistry();
			ServiceExporter exporter = new ServiceExporter(new ServiceIntrospector(CodecRegistry.standard()), registry);
			this.service = new BenchServiceImpl(memory);
			exporter.export(BenchService.class, this.service);
			exporter.export(Calculator.class, (a, b) -> a + b);
			this.server = RpcServer.start(RpcServer.Config.defaults(this.provider, memory, bind)
				.withTransport(libraryDefaults ? TransportConfig.defaults() : RpcRdmaSetup.transport())
				.withExecutor(new RpcServer.ExecutorSpec(RpcServer.ExecutorKind.DIRECT, 1, 0))
				// Every benchmark client is one peer, 127.0.0.1: Growth's 10,000 idle
				// connections would stop at the per-peer cap, so it is the total one here.
				.withConnectionLimits(new ConnectionLimits(ConnectionLimits.DEFAULT_TOTAL, ConnectionLimits.DEFAULT_TOTAL))
				.withSecurity(security), registry);
			this.pool = memory;
		}
		catch (RuntimeException failed) {
			if (this.service != null) {
				this.service.close();
			}
			if (memory != null) {
				memory.close();
			}
			this.provider.close();
			throw failed;
		}
	}

	/** @return where clients connect */
	public InetSocketAddress address() {
		return this.server.localAddress();
	}

	@Override
	public void close() {
		this.server.shutdown(Duration.ofSeconds(1)).join();
		this.service.close();
		this.pool.close();
		this.provider.close();
	}

	/**
	 * What the server holds now.
	 * @return {@code STATS <registered bytes> <leased bytes> <connections>}
	 */
	String stats() {
		MemoryPoolStats memory = this.pool.stats();
		return "STATS " + memory.registeredBytes() + " " + memory.leasedBytes() + " " + this.server.connections().size();
	}

	/**
	 * Serves on 127.0.0.1 until standard input closes; prints {@code PORT <n>} once listening,
	 * and answers each {@code STATS} line on standard input with
	 * {@code STATS <registered bytes> <leased bytes> <connections>} (registered and leased -1
	 * for a contender that registers no memory).
	 * @param args {@code --contender:<name>} for the contender whose server runs (one of
	 * {@link #CONTENDERS}; rpcrdma-siw, this class over software iWARP, if none),
	 * {@code --library-defaults} for the library's default transport and memory pool settings,
	 * {@code --provider:<key>=<value>} for a provider setting (such as
	 * {@code --provider:siw.max-queue-pairs=8}); the last two for rpcrdma only
	 * @throws Exception if the server cannot start or standard input fails
	 */
	public static void main(String[] args) throws Exception {
		// The child's standard error is the comparison's: only warnings and errors belong there.
		java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
		root.setLevel(java.util.logging.Level.WARNING);
		for (java.util.logging.Handler handler : root.getHandlers()) {
			handler.setLevel(java.util.logging.Level.WARNING);
		}
		boolean libraryDefaults = List.of(args).contains(LIBRARY_DEFAULTS);
		String contender = Contenders.SIW;
		RdmaProviderConfig settings = RdmaProviderConfig.defaults();
		for (String arg : args) {
			if (arg.startsWith(PROVIDER_SETTING) && arg.indexOf('=') > PROVIDER_SETTING.length()) {
				int equals = arg.indexOf('=');
				settings = settings.with(arg.substring(PROVIDER_SETTING.length(), equals), arg.substring(equals + 1));
			}
			else if (arg.startsWith(CONTENDER)) {
				contender = arg.substring(CONTENDER.length());
			}
		}
		try (Served server = serve(contender, libraryDefaults, settings)) {
			System.out.println("PORT " + server.port());
			System.out.flush();
			BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			String line;
			// Runs until the comparison closes our standard input (or dies).
			while ((line = commands.readLine()) != null) {
				if (line.trim().equals("STATS")) {
					System.out.println(server.stats().get());
					System.out.flush();
				}
			}
		}
	}

	private static Served serve(String contender, boolean libraryDefaults, RdmaProviderConfig settings)
			throws IOException {
		return switch (contender) {
			case Contenders.SOCKET -> {
				SocketServer socket = new SocketServer(Payloads.filled(BenchService.MAX_BULK));
				yield new Served(socket, socket.address().getPort(), () -> "STATS -1 -1 " + socket.connections());
			}
			case Contenders.GRPC -> {
				GrpcServer grpc = new GrpcServer();
				yield new Served(grpc, grpc.address().getPort(), () -> "STATS -1 -1 " + grpc.connections());
			}
			case Contenders.SIW -> {
				CompareServer rpcrdma = new CompareServer("siw",
						new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), SecurityPolicy.permitAll(),
						libraryDefaults, settings);
				yield new Served(rpcrdma, rpcrdma.address().getPort(), rpcrdma::stats);
			}
			default -> throw new IllegalArgumentException(
					"No server for a contender named " + contender + "; choose from " + CONTENDERS);
		};
	}

	/**
	 * A contender's server in this process.
	 * @param server what stops it
	 * @param port where it listens on the loopback address
	 * @param stats its {@code STATS} line
	 */
	private record Served(AutoCloseable server, int port, Supplier<String> stats) implements AutoCloseable {

		@Override
		public void close() throws Exception {
			this.server.close();
		}

	}

}

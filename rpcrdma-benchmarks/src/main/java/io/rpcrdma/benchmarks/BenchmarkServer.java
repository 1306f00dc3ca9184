package io.rpcrdma.benchmarks;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.service.ServiceExporter;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * A {@link Calculator} server, in the benchmark's JVM or, through {@link #main}, in a process of
 * its own so that a benchmark measures the client alone.
 */
public final class BenchmarkServer implements AutoCloseable {

	private final RdmaProvider provider;

	private final RegisteredMemoryPool pool;

	private final RpcServer server;

	private BenchmarkServer(String providerName, InetSocketAddress bind) {
		this.provider = RdmaProviders.open(providerName);
		this.pool = new RegisteredMemoryPool(this.provider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
		ProgramRegistry registry = new ProgramRegistry();
		new ServiceExporter(new ServiceIntrospector(CodecRegistry.standard()), registry).export(Calculator.class,
				(a, b) -> a + b);
		this.server = RpcServer.start(RpcServer.Config.defaults(this.provider, this.pool, bind)
			.withExecutor(new RpcServer.ExecutorSpec(RpcServer.ExecutorKind.DIRECT, 1, 0)), registry);
	}

	/**
	 * @param providerName the RDMA provider
	 * @param bind where to listen
	 * @return the listening server
	 */
	public static BenchmarkServer start(String providerName, InetSocketAddress bind) {
		return new BenchmarkServer(providerName, bind);
	}

	/** @return where clients connect */
	public InetSocketAddress address() {
		return this.server.localAddress();
	}

	@Override
	public void close() {
		this.server.shutdown(Duration.ofSeconds(1)).join();
		this.pool.close();
		this.provider.close();
	}

	/**
	 * Serves over software iWARP on 127.0.0.1 until standard input closes; prints
	 * {@code PORT <n>} once listening.
	 * @param args unused
	 * @throws IOException if standard input fails
	 */
	public static void main(String[] args) throws IOException {
		try (BenchmarkServer server = start("siw", new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
			System.out.println("PORT " + server.address().getPort());
			System.out.flush();
			while (System.in.read() >= 0) {
				// Runs until the benchmark closes our standard input (or dies).
			}
		}
	}

}

package io.rpcrdma.benchmarks.compare;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.function.UnaryOperator;

import io.rpcrdma.client.RetryPolicy;
import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.service.BulkData;
import io.rpcrdma.service.ServiceClientFactory;
import io.rpcrdma.service.ServiceClientOptions;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * rpcrdma through its service layer: a {@link BenchService} proxy over a pool of RPC-over-RDMA
 * connections with the library's defaults (one kept, up to four, another for each concurrent
 * caller) that every client thread shares, as gRPC's channel is shared. Small calls travel
 * inline; bulk arguments leave a registered buffer by Read chunk (zero copy, {@link BulkData})
 * and bulk results arrive by Write chunk.
 */
final class RpcRdmaContender implements Contender {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	/** Calls go through the pool's connections as they are. */
	static final UnaryOperator<RpcCaller> UNPROTECTED = UnaryOperator.identity();

	/** What every put sends, built once: sessions copy it into their registered source. */
	private static final ByteBuffer FILLED = Payloads.directFilled(BenchService.MAX_BULK);

	private final String name;

	private final AutoCloseable server;

	private final RdmaProvider provider;

	private final RegisteredMemoryPool pool;

	private final InetSocketAddress address;

	/** The pool every session shares; {@code null} when each session has its own. */
	private final Connected shared;

	/**
	 * A pool of connections and the proxy over it.
	 * @param clients the pool, each of whose connections protects its calls when the contender's do
	 * @param service the proxy
	 */
	private record Connected(RpcClientPool clients, BenchService service) implements AutoCloseable {

		@Override
		public void close() throws Exception {
			this.clients.close();
		}

	}

	/**
	 * A server a contender calls: where it listens, and what stops it.
	 * @param address where clients connect
	 * @param handle closes it
	 */
	record Running(InetSocketAddress address, AutoCloseable handle) {
	}

	private static Running server(String providerName, InetSocketAddress listen, boolean childProcess) throws Exception {
		if (childProcess) {
			ServerProcess child = new ServerProcess();
			return new Running(child.address(), child);
		}
		return server(providerName, listen, RdmaProviderConfig.defaults());
	}

	private static Running server(String providerName, InetSocketAddress listen, RdmaProviderConfig settings) {
		CompareServer inJvm = new CompareServer(providerName, listen, settings);
		return new Running(inJvm.address(), inJvm);
	}

	/**
	 * @param name the contender's name
	 * @param providerName the provider both ends use
	 * @param listen where an in-JVM server listens
	 * @param childProcess whether the server runs in a child JVM instead (software iWARP only)
	 * @throws Exception if the server cannot start
	 */
	RpcRdmaContender(String name, String providerName, InetSocketAddress listen, boolean childProcess) throws Exception {
		this(name, providerName, server(providerName, listen, childProcess), UNPROTECTED);
	}

	/**
	 * A contender whose client's provider has settings of its own (an A/B of one setting).
	 * @param name the contender's name
	 * @param providerName the provider both ends use
	 * @param listen where an in-JVM server listens
	 * @param clientSettings the client provider's settings
	 * @throws Exception if the server cannot start
	 */
	RpcRdmaContender(String name, String providerName, InetSocketAddress listen, RdmaProviderConfig clientSettings)
			throws Exception {
		this(name, providerName, listen, clientSettings, RdmaProviderConfig.defaults());
	}

	/**
	 * A contender whose client's and server's providers have settings of their own.
	 * @param name the contender's name
	 * @param providerName the provider both ends use
	 * @param listen where an in-JVM server listens
	 * @param clientSettings the client provider's settings
	 * @param serverSettings the server provider's settings
	 */
	RpcRdmaContender(String name, String providerName, InetSocketAddress listen, RdmaProviderConfig clientSettings,
			RdmaProviderConfig serverSettings) {
		this(name, providerName, server(providerName, listen, serverSettings), UNPROTECTED, false,
				clientSettings);
	}

	/**
	 * A contender calling a server that is already running.
	 * @param name the contender's name
	 * @param providerName the provider the client uses
	 * @param server the server, closed with the contender
	 * @param protect what each of the pool's connections sends its calls through (an
	 * RPCSEC_GSS client, say; {@link #UNPROTECTED} for nothing), closed with its connection
	 */
	RpcRdmaContender(String name, String providerName, Running server, UnaryOperator<RpcCaller> protect) {
		this(name, providerName, server, protect, false);
	}

	/**
	 * A contender whose sessions each open a connection of their own, for cases that grow the
	 * number of client connections.
	 * @param name the contender's name
	 * @param providerName the provider both ends use
	 * @param listen where an in-JVM server listens
	 * @return the contender
	 * @throws Exception if the server cannot start
	 */
	static RpcRdmaContender connectionPerSession(String name, String providerName, InetSocketAddress listen)
			throws Exception {
		return new RpcRdmaContender(name, providerName, server(providerName, listen, false), UNPROTECTED,
				true);
	}

	private RpcRdmaContender(String name, String providerName, Running server, UnaryOperator<RpcCaller> protect,
			boolean connectionPerSession) {
		this(name, providerName, server, protect, connectionPerSession, RdmaProviderConfig.defaults());
	}

	private RpcRdmaContender(String name, String providerName, Running server, UnaryOperator<RpcCaller> protect,
			boolean connectionPerSession, RdmaProviderConfig clientSettings) {
		this.name = name;
		this.server = server.handle();
		this.address = server.address();
		this.provider = RdmaProviders.open(providerName, clientSettings);
		this.pool = new RegisteredMemoryPool(this.provider.allocateProtectionDomain(), RpcRdmaSetup.pools());
		this.shared = connectionPerSession ? null : connect(protect);
	}

	/**
	 * A pool with the library's default connections and the proxy over it, through what
	 * protects its calls.
	 */
	private Connected connect(UnaryOperator<RpcCaller> protect) {
		// The library's default pool: one connection kept, up to four, another opened for each
		// concurrent caller (issue #36 measures concurrency with the defaults).
		RpcClientPool.Config config = RpcClientPool.Config.of(1, RpcClientPool.Config.DEFAULT_MAX_CONNECTIONS);
		// More room for pending and waiting calls than client threads: no call of the
		// 256-thread blocking case is refused (beyond the credits they wait in the transport).
		int room = 2 * Compare.BLOCKING_THREADS;
		config = new RpcClientPool.Config(config.minConnections(), config.maxConnections(), room, config.reconnect(),
				RetryPolicy.none(), config.idleTimeout());
		RpcClientPool clients = RpcClientPool.connect(this.provider, this.pool, this.address, RpcRdmaSetup.transport(),
				room, config);
		if (protect != UNPROTECTED) {
			// A server binds an RPCSEC_GSS context to its connection: one per connection.
			clients.protectConnections(protect);
		}
		// Echo results are unbounded byte[]: a reply size within the inline threshold keeps
		// them inline, with no Reply chunk offered (RFC 8166 §3.5.4).
		BenchService service = new ServiceClientFactory(new ServiceIntrospector(CodecRegistry.standard())).create(
				BenchService.class, clients, ServiceClientOptions.DEFAULTS.withTimeout(TIMEOUT).withMaxReplySize(1024));
		return new Connected(clients, service);
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public Optional<ProcessHandle> serverProcess() {
		return (this.server instanceof ServerProcess child) ? Optional.of(child.handle()) : Optional.empty();
	}

	@Override
	public Session openSession() {
		return new RpcRdmaSession((this.shared != null) ? this.shared : connect(UNPROTECTED));
	}

	@Override
	public void close() throws Exception {
		if (this.shared != null) {
			this.shared.close();
		}
		this.pool.close();
		this.provider.close();
		this.server.close();
	}

	private final class RpcRdmaSession implements Session {

		private final Connected connected;

		private final BenchService service;

		RpcRdmaSession(Connected connected) {
			this.connected = connected;
			this.service = connected.service();
		}

		/** The put source, leased at the first put and filled once. */
		private RegisteredBuffer source;

		@Override
		public void echo(byte[] request) throws Exception {
			byte[] reply = this.service.echo(request);
			if (reply.length != request.length) {
				throw new UnexpectedReplyException(name(), reply.length + " bytes echoed for " + request.length);
			}
		}

		@Override
		public void put(int length) throws Exception {
			if (this.source == null) {
				this.source = RpcRdmaContender.this.pool.lease(BufferRole.READ_CHUNK, BenchService.MAX_BULK);
				this.source.buffer().duplicate().put(FILLED.duplicate());
			}
			int received = this.service.put(BulkData.of(this.source, length));
			if (received != length) {
				throw new UnexpectedReplyException(name(), received + " bytes acknowledged for " + length);
			}
		}

		@Override
		public void get(int length) throws Exception {
			// The zero-copy result API, as put uses the zero-copy argument API.
			try (BulkData reply = this.service.getLent(length)) {
				if (reply.length() != length) {
					throw new UnexpectedReplyException(name(), reply.length() + " bytes sent for " + length);
				}
			}
		}

		@Override
		public void close() throws Exception {
			if (this.source != null) {
				this.source.release();
			}
			if (this.connected != RpcRdmaContender.this.shared) {
				this.connected.close();
			}
		}

	}

}

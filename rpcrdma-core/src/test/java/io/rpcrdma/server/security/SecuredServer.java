package io.rpcrdma.server.security;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.service.RpcClientInterceptor;
import io.rpcrdma.service.RpcServerInterceptor;
import io.rpcrdma.service.ServiceCallObserver;
import io.rpcrdma.service.ServiceClientFactory;
import io.rpcrdma.service.ServiceClientOptions;
import io.rpcrdma.service.ServiceExporter;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * For the security tests: one service behind a {@link SecurityPolicy}, served over a real
 * provider (loopback or software iWARP on 127.0.0.1), and a client pool of one connection to
 * it. Closing it closes all of them.
 */
public final class SecuredServer implements AutoCloseable {

	private final ServiceIntrospector introspector = new ServiceIntrospector(CodecRegistry.standard());

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private RpcServer server;

	private RpcClientPool clients;

	private RdmaProvider provider;

	private RegisteredMemoryPool memory;

	private TransportConfig transport;

	private SecuredServer() {
	}

	/**
	 * @param providerName {@code loopback} or {@code siw}
	 * @param policy the server's policy
	 * @param service the implementation to export
	 * @param interceptors around every served call
	 * @return the running server and its client pool
	 */
	public static SecuredServer start(String providerName, SecurityPolicy policy, Object service,
			RpcServerInterceptor... interceptors) {
		return start(providerName, TransportConfig.defaults(), policy, service, interceptors);
	}

	/**
	 * @param providerName {@code loopback} or {@code siw}
	 * @param transport both ends' transport settings
	 * @param policy the server's policy
	 * @param service the implementation to export
	 * @param interceptors around every served call
	 * @return the running server and its client pool
	 */
	public static SecuredServer start(String providerName, TransportConfig transport, SecurityPolicy policy,
			Object service, RpcServerInterceptor... interceptors) {
		SecuredServer secured = new SecuredServer();
		try {
			RdmaProvider provider = RdmaProviders.open(providerName);
			secured.closeables.add(provider);
			RegisteredMemoryPool pool = new RegisteredMemoryPool(provider.allocateProtectionDomain(),
					MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
			secured.closeables.add(pool);
			secured.provider = provider;
			secured.memory = pool;
			secured.transport = transport;
			ProgramRegistry registry = new ProgramRegistry();
			new ServiceExporter(secured.introspector, registry, ServiceCallObserver.NONE, List.of(interceptors))
				.export(service);
			InetSocketAddress bind = "loopback".equals(providerName) ? InetSocketAddress.createUnresolved("secured", 0)
					: new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
			secured.server = RpcServer.start(RpcServer.Config.defaults(provider, pool, bind)
				.withTransport(transport)
				.withSecurity(policy), registry);
			secured.closeables.add(secured.server);
			secured.clients = RpcClientPool.connect(provider, pool, secured.server.localAddress(), transport, 16,
					RpcClientPool.Config.of(1, 1));
			secured.closeables.add(secured.clients);
			return secured;
		}
		catch (RuntimeException ex) {
			secured.close();
			throw ex;
		}
	}

	/** @return the server */
	public RpcServer server() {
		return this.server;
	}

	/** @return the client pool to it */
	public RpcClientPool clients() {
		return this.clients;
	}

	/**
	 * Another client pool to the server, from this host, closed before the server.
	 * @param config its settings
	 * @return the pool
	 */
	public RpcClientPool connect(RpcClientPool.Config config) {
		RpcClientPool more = RpcClientPool.connect(this.provider, this.memory, this.server.localAddress(), this.transport,
				16, config);
		this.closeables.add(more);
		return more;
	}

	/**
	 * A service proxy.
	 * @param <T> the service interface
	 * @param type the service interface
	 * @param caller what it calls through: the pool, or something over it
	 * @param options deadline and reply room
	 * @param interceptors around every call
	 * @return the proxy
	 */
	public <T> T proxy(Class<T> type, RpcCaller caller, ServiceClientOptions options,
			RpcClientInterceptor... interceptors) {
		return new ServiceClientFactory(this.introspector).create(type, caller,
				options.withInterceptors(List.of(interceptors)));
	}

	/**
	 * A service proxy with default options but the deadline.
	 * @param <T> the service interface
	 * @param type the service interface
	 * @param caller what it calls through
	 * @param deadline each call's deadline
	 * @param interceptors around every call
	 * @return the proxy
	 */
	public <T> T proxy(Class<T> type, RpcCaller caller, Duration deadline, RpcClientInterceptor... interceptors) {
		return proxy(type, caller, ServiceClientOptions.DEFAULTS.withTimeout(deadline), interceptors);
	}

	@Override
	public void close() {
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			try {
				this.closeables.get(i).close();
			}
			catch (Exception ex) {
				throw new IllegalStateException("Closing " + this.closeables.get(i) + " failed", ex);
			}
		}
		this.closeables.clear();
	}

}

package io.rpcrdma.spring.boot.autoconfigure.server;

import java.net.InetSocketAddress;

import org.springframework.boot.thread.Threading;
import org.springframework.core.env.Environment;

import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAddress;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaProperties;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaTransportConfigs;
import io.rpcrdma.transport.ConnectionLimits;
import io.rpcrdma.transport.PeerLimits;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * Builds the server's settings from {@code rpcrdma.server.*}.
 */
final class RpcServerConfigs {

	/** Where a loopback server listens when no address is configured: an in-JVM host name. */
	static final String DEFAULT_LOOPBACK_HOST = "rpcrdma";

	private RpcServerConfigs() {
	}

	/** The property that chooses the executor; when set, it wins over spring.threads.virtual.enabled. */
	static final String EXECUTOR_KIND = "rpcrdma.server.executor.kind";

	/**
	 * Whether service methods run on virtual threads although the executor kind is not set:
	 * when the application asks for virtual threads ({@code spring.threads.virtual.enabled})
	 * and the runtime has them (Java 21 or later).
	 * @param environment the application's environment
	 * @return {@code true} to use virtual threads
	 */
	static boolean virtualThreadsByDefault(Environment environment) {
		return Threading.VIRTUAL.isActive(environment) && !environment.containsProperty(EXECUTOR_KIND);
	}

	/**
	 * The server's settings.
	 * @param server the properties
	 * @param provider the provider
	 * @param pool the registered memory
	 * @param virtualThreads run service methods on virtual threads whatever the executor kind
	 * says (it was not set); every call the pool would admit (its threads and its queue) then
	 * runs at once, each on its own virtual thread
	 * @return the settings
	 */
	static RpcServer.Config from(RpcRdmaProperties.Server server, RdmaProvider provider, RegisteredMemoryPool pool,
			boolean virtualThreads) {
		RpcRdmaProperties.Executor executor = server.getExecutor();
		RpcServer.ExecutorSpec executorSpec = virtualThreads
				? new RpcServer.ExecutorSpec(RpcServer.ExecutorKind.VIRTUAL_THREADS,
						executor.getThreads() + executor.getQueueCapacity(), executor.getQueueCapacity(),
						executor.getPerConnection())
				: new RpcServer.ExecutorSpec(executor.getKind(), executor.getThreads(), executor.getQueueCapacity(),
						executor.getPerConnection());
		TransportConfig transport = RpcRdmaTransportConfigs.of(server.getVersions(), server.getInlineThresholdV1(),
				server.getInlineThresholdV2(), TransportConfig.DEFAULT_CREDITS, server.getCredits(), null)
			.withPeerLimits(PeerLimits.DEFAULTS.withOperationTimeout(server.getOperationTimeout())
				.withBulkShare(server.getBulkShare().toBytes()));
		RpcRdmaProperties.DuplicateRequestCache drc = server.getDuplicateRequestCache();
		return RpcServer.Config.defaults(provider, pool, bindAddress(server, provider.name()))
			.withTransport(transport)
			.withExecutor(executorSpec)
			.withDuplicateRequestCache(drc.isEnabled(), drc.getEntriesPerClient(), drc.getEntries(), drc.getTtl())
			.withGracePeriod(server.getShutdownGracePeriod())
			.withCreditBudget(server.getCreditBudget())
			.withBackwardCredits(server.getBackchannel().getCredits())
			.withConnectionLimits(new ConnectionLimits(server.getMaxConnectionsPerPeer(), server.getMaxConnections()));
	}

	/**
	 * The loopback provider's addresses are in-JVM names that never resolve; every other
	 * provider listens on a real interface, all of them when no address is configured.
	 */
	static InetSocketAddress bindAddress(RpcRdmaProperties.Server server, String providerName) {
		String address = server.getAddress();
		boolean loopback = RpcRdmaAddress.LOOPBACK_PROVIDER.equalsIgnoreCase(providerName);
		if (address == null || address.isBlank()) {
			return loopback ? InetSocketAddress.createUnresolved(DEFAULT_LOOPBACK_HOST, server.getPort())
					: new InetSocketAddress(server.getPort());
		}
		return loopback ? InetSocketAddress.createUnresolved(address.trim(), server.getPort())
				: new InetSocketAddress(address.trim(), server.getPort());
	}

}

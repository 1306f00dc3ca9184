package io.rpcrdma.spring.boot.autoconfigure.server;

import java.net.InetSocketAddress;

import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAddress;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaProperties;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaTransportConfigs;
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

	static RpcServer.Config from(RpcRdmaProperties.Server server, RdmaProvider provider, RegisteredMemoryPool pool) {
		TransportConfig transport = RpcRdmaTransportConfigs.of(server.getVersions(), server.getInlineThresholdV1(),
				server.getInlineThresholdV2(), TransportConfig.DEFAULT_CREDITS, server.getCredits(), null);
		RpcRdmaProperties.DuplicateRequestCache drc = server.getDuplicateRequestCache();
		return RpcServer.Config.defaults(provider, pool, bindAddress(server, provider.name()))
			.withTransport(transport)
			.withExecutor(new RpcServer.ExecutorSpec(server.getExecutor().getKind(), server.getExecutor().getThreads(),
					server.getExecutor().getQueueCapacity()))
			.withDuplicateRequestCache(drc.isEnabled(), drc.getEntriesPerClient(), drc.getEntries(), drc.getTtl())
			.withGracePeriod(server.getShutdownGracePeriod())
			.withCreditBudget(server.getCreditBudget());
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

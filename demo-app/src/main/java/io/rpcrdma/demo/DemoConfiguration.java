package io.rpcrdma.demo;

import java.time.Clock;

import io.rpcrdma.demo.cli.StoreProbe;
import io.rpcrdma.demo.cli.WatchEvents;
import io.rpcrdma.demo.report.TransportCounterReader;
import io.rpcrdma.demo.store.ObjectStore;
import io.rpcrdma.demo.store.ObjectStoreService;
import io.rpcrdma.demo.store.StoreLimits;
import io.rpcrdma.demo.store.StoreWatcher;
import io.rpcrdma.demo.store.StoreWatchers;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.protocol.HeaderLimits;
import io.rpcrdma.spring.boot.RpcCallbackService;
import io.rpcrdma.spring.boot.RpcCallbacks;
import io.rpcrdma.spring.boot.RpcService;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcServerCustomizer;
import io.rpcrdma.spring.boot.client.RpcClientCustomizer;
import io.rpcrdma.spring.boot.client.RpcClientFactory;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The object store, served when this process serves, and what the demo's client side uses.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DemoProperties.class)
public class DemoConfiguration {

	/** The client name of the store: {@code rpcrdma.client.store.*}. */
	public static final String CLIENT = "store";

	@Bean
	@RpcService
	@ConditionalOnProperty(prefix = "rpcrdma.server", name = "enabled", matchIfMissing = true)
	ObjectStoreService objectStoreService(DemoProperties properties, RpcCallbacks callbacks) {
		DemoProperties.Store store = properties.getStore();
		return new ObjectStoreService(
				new StoreLimits(Math.toIntExact(Math.min(store.getMaxObjectSize().toBytes(), Integer.MAX_VALUE)),
						store.getCapacity().toBytes()),
				Clock.systemUTC(), new StoreWatchers(() -> callbacks.forCaller(StoreWatcher.class)));
	}

	/**
	 * What the store calls back for {@code watch} (RFC 8167): served on this application's
	 * connections to the store, so a client behind a firewall or NAT is told too.
	 */
	@Bean
	@RpcCallbackService
	WatchEvents watchEvents() {
		return new WatchEvents(1024);
	}

	/**
	 * The transport's default header limits allow 16 MiB of chunks per message; objects reach
	 * {@link ObjectStore#MAX_OBJECT_BYTES}, so both sides accept chunk lists that large
	 * (the bound a responder checks before it reads, RFC 8166 §3.4).
	 */
	@Bean
	RpcServerCustomizer objectSizedServerChunks() {
		return (config) -> config.withTransport(withObjectSizedChunks(config.transport()));
	}

	@Bean
	RpcClientCustomizer objectSizedClientChunks() {
		return (spec) -> spec.withTransport(withObjectSizedChunks(spec.transport()));
	}

	static TransportConfig withObjectSizedChunks(TransportConfig transport) {
		HeaderLimits limits = transport.headerLimits();
		long needed = 2L * ObjectStore.MAX_OBJECT_BYTES;
		if (limits.maxTotalChunkBytes() >= needed) {
			return transport;
		}
		return transport.withHeaderLimits(new HeaderLimits(limits.maxSegmentsPerChunk(), limits.maxChunks(), needed,
				limits.maxOptionalInfoLength()));
	}

	@Bean
	TransportCounterReader transportCounterReader(RpcClientFactory clients,
			ObjectProvider<RpcRdmaServerLifecycle> server) {
		return new TransportCounterReader(clients, CLIENT, server.getIfAvailable());
	}

	@Bean
	StoreProbe storeProbe(RdmaProvider provider, RegisteredMemoryPool memory, RpcClientFactory clients) {
		return new StoreProbe(provider, memory, clients);
	}

}

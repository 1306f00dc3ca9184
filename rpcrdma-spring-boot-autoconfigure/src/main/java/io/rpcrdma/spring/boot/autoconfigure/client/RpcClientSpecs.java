package io.rpcrdma.spring.boot.autoconfigure.client;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.rpcrdma.client.Backoff;
import io.rpcrdma.client.RetryPolicy;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.service.RpcClientInterceptor;
import io.rpcrdma.service.ServiceClientOptions;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAddress;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaProperties;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaTransportConfigs;
import io.rpcrdma.spring.boot.client.RpcClientCustomizer;
import io.rpcrdma.spring.boot.client.RpcClientSpec;
import io.rpcrdma.transport.TransportConfig;

/**
 * Builds a named client's settings from {@code rpcrdma.client.<name>.*} (the defaults for a
 * name that is not configured) and {@code rpcrdma.conveyance.*}, then applies the
 * {@link RpcClientCustomizer}s. Every client gets the application's {@link RpcClientInterceptor}
 * beans, in their order; a customizer may add or remove some for one client.
 */
final class RpcClientSpecs implements Function<String, RpcClientSpec> {

	/** Reconnect and retry delays: RpcClientPool.Config.of's, 10 ms growing to 5 s. */
	private static final Backoff BACKOFF = Backoff.exponential(Duration.ofMillis(10), Duration.ofSeconds(5));

	private final RpcRdmaProperties properties;

	private final String providerName;

	private final List<RpcClientCustomizer> customizers;

	private final List<RpcClientInterceptor> interceptors;

	RpcClientSpecs(RpcRdmaProperties properties, String providerName, List<RpcClientCustomizer> customizers,
			List<RpcClientInterceptor> interceptors) {
		this.properties = properties;
		this.providerName = providerName;
		this.customizers = customizers;
		this.interceptors = interceptors;
	}

	@Override
	public RpcClientSpec apply(String name) {
		RpcRdmaProperties.Client client = this.properties.getClient().getOrDefault(name, new RpcRdmaProperties.Client());
		List<InetSocketAddress> addresses = new ArrayList<>();
		for (String address : client.getAddress()) {
			addresses.add(RpcRdmaAddress.parse(address).toSocketAddress(this.providerName));
		}
		TransportConfig transport = RpcRdmaTransportConfigs.of(client.getVersions(), client.getInlineThresholdV1(),
				client.getInlineThresholdV2(), client.getCredits(), TransportConfig.DEFAULT_CREDITS,
				client.getConnectTimeout());
		RpcClientPool.Config pool = new RpcClientPool.Config(client.getMinConnections(), client.getMaxConnections(),
				client.getMaxWaiting(), BACKOFF, new RetryPolicy(client.getRetries() + 1, BACKOFF));
		ServiceClientOptions options = new ServiceClientOptions(client.getCallTimeout(),
				(int) client.getMaxReplySize().toBytes(), (int) this.properties.getConveyance().getDdpThreshold().toBytes(),
				this.interceptors);
		RpcClientSpec spec = new RpcClientSpec(name, addresses, transport, client.getMaxPending(), pool, options);
		for (RpcClientCustomizer customizer : this.customizers) {
			spec = customizer.customize(spec);
		}
		return spec;
	}

}

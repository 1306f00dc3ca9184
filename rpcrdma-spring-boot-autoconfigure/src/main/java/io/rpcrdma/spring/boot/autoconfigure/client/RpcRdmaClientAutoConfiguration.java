package io.rpcrdma.spring.boot.autoconfigure.client;

import java.util.Optional;

import io.rpcrdma.backchannel.CallbackServices;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.service.RpcClientInterceptor;
import io.rpcrdma.service.ServiceCallObserver;
import io.rpcrdma.service.ServiceClientFactory;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaProperties;
import io.rpcrdma.spring.boot.autoconfigure.provider.RpcRdmaProviderAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.spring.boot.autoconfigure.service.RpcRdmaServiceAutoConfiguration;
import io.rpcrdma.spring.boot.client.RpcClientCustomizer;
import io.rpcrdma.spring.boot.client.RpcClientDiscovery;
import io.rpcrdma.spring.boot.client.RpcClientFactory;
import io.rpcrdma.verbs.RdmaProvider;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@link RpcClientFactory} that named clients
 * ({@code rpcrdma.client.<name>.*}, then {@link RpcClientCustomizer} beans) and
 * {@link io.rpcrdma.spring.boot.client.ImportRpcClients @ImportRpcClients} proxies call
 * through. A client without an address calls this application's own server. Every
 * {@link RpcClientInterceptor} bean acts around every call of every client, in order.
 */
@AutoConfiguration(after = { RpcRdmaProviderAutoConfiguration.class, RpcRdmaServiceAutoConfiguration.class,
		RpcRdmaServerAutoConfiguration.class })
@ConditionalOnClass(ServiceClientFactory.class)
@ConditionalOnBean({ RdmaProvider.class, RegisteredMemoryPool.class, ServiceIntrospector.class })
@EnableConfigurationProperties(RpcRdmaProperties.class)
public final class RpcRdmaClientAutoConfiguration {

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	RpcClientFactory rpcClientFactory(RdmaProvider provider, RegisteredMemoryPool pool, ServiceIntrospector introspector,
			RpcRdmaProperties properties, ObjectProvider<ServiceCallObserver> observer,
			ObjectProvider<RpcClientCustomizer> customizers, ObjectProvider<RpcClientInterceptor> interceptors,
			ObjectProvider<RpcRdmaServerLifecycle> server, ObjectProvider<CallbackServices> callbacks,
			ObjectProvider<RpcClientDiscovery> discovery) {
		ServiceClientFactory proxies = new ServiceClientFactory(introspector,
				observer.getIfAvailable(() -> ServiceCallObserver.NONE));
		RpcClientSpecs specs = new RpcClientSpecs(properties, provider.name(), customizers.orderedStream().toList(),
				interceptors.orderedStream().toList());
		return new RpcClientFactory(provider, pool, proxies, specs,
				() -> Optional.ofNullable(server.getIfAvailable()).flatMap(RpcRdmaServerLifecycle::localAddress))
			.serving(callbacks.getIfAvailable())
			.discovering(discovery.getIfAvailable());
	}

}

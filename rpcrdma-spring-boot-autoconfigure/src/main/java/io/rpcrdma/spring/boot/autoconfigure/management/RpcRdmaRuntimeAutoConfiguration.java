package io.rpcrdma.spring.boot.autoconfigure.management;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaProperties;
import io.rpcrdma.spring.boot.autoconfigure.client.RpcRdmaClientAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.provider.RpcRdmaProviderAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.spring.boot.client.RpcClientFactory;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * The {@link RpcRdmaRuntime} health, metrics and the actuator endpoint read, built from the
 * starter's provider, memory, server lifecycle and client factory beans, whichever exist.
 */
@AutoConfiguration(after = { RpcRdmaProviderAutoConfiguration.class, RpcRdmaServerAutoConfiguration.class,
		RpcRdmaClientAutoConfiguration.class })
@ConditionalOnBean(RdmaProvider.class)
public final class RpcRdmaRuntimeAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RpcRdmaRuntime rpcrdmaRuntime(ObjectProvider<RdmaProvider> provider, ObjectProvider<RegisteredMemoryPool> pool,
			ObjectProvider<RpcRdmaServerLifecycle> server, ObjectProvider<RpcClientFactory> clients,
			ObjectProvider<RpcRdmaProperties> properties) {
		// A server lifecycle with nothing to export never listens (a client-only application):
		// only a lifecycle with services is a server that should be serving.
		return new SuppliedRpcRdmaRuntime(provider::getIfAvailable, pool::getIfAvailable,
				() -> Optional.ofNullable(server.getIfAvailable())
					.map((lifecycle) -> !lifecycle.exportedServices().isEmpty())
					.orElse(false),
				() -> Optional.ofNullable(server.getIfAvailable()).flatMap(RpcRdmaServerLifecycle::server),
				() -> Optional.ofNullable(server.getIfAvailable())
					.map(RpcRdmaServerLifecycle::exportedServices)
					.orElse(List.of()),
				() -> Optional.ofNullable(clients.getIfAvailable()).map(RpcClientFactory::pools).orElse(Map.of()),
				() -> Optional.ofNullable(properties.getIfAvailable())
					.map((bound) -> bound.getClient().keySet())
					.orElse(Set.of()),
				() -> Optional.ofNullable(clients.getIfAvailable()).map(RpcClientFactory::instances).orElse(Map.of()),
				(name) -> Optional.ofNullable(clients.getIfAvailable())
					.map((factory) -> factory.failovers(name))
					.orElse(0L));
	}

}

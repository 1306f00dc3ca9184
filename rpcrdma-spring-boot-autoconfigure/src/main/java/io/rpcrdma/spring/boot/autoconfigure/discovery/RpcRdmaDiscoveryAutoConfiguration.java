package io.rpcrdma.spring.boot.autoconfigure.discovery;

import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaProperties;
import io.rpcrdma.spring.boot.autoconfigure.client.RpcRdmaClientAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.provider.RpcRdmaProviderAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerAutoConfiguration;
import io.rpcrdma.verbs.RdmaProvider;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.client.serviceregistry.AbstractAutoServiceRegistration;
import org.springframework.cloud.client.serviceregistry.Registration;
import org.springframework.cloud.client.serviceregistry.ServiceRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of Spring Cloud service discovery, when Spring Cloud Commons is on the
 * class path: clients whose address is {@code discovery:///<service-id>} find their servers
 * through the application's {@link DiscoveryClient}, and the RPC server puts its port,
 * provider, versions and programs in the application's registration (unless
 * {@code rpcrdma.server.discovery.enabled=false}). The discovery beans are looked up when used,
 * so the order of Spring Cloud's own auto-configurations does not matter.
 */
@AutoConfiguration(after = RpcRdmaProviderAutoConfiguration.class,
		before = { RpcRdmaClientAutoConfiguration.class, RpcRdmaServerAutoConfiguration.class })
@ConditionalOnClass(DiscoveryClient.class)
@ConditionalOnBean(RdmaProvider.class)
@EnableConfigurationProperties(RpcRdmaProperties.class)
public final class RpcRdmaDiscoveryAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	DiscoveryInstanceSources rpcRdmaDiscoveryInstanceSources(ObjectProvider<DiscoveryClient> discovery,
			RdmaProvider provider) {
		return new DiscoveryInstanceSources(discovery, provider.name());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(ServiceRegistry.class)
	@ConditionalOnBooleanProperty(name = "rpcrdma.server.discovery.enabled", matchIfMissing = true)
	static class Registering {

		@Bean
		@ConditionalOnMissingBean
		DiscoveryServerRegistration rpcRdmaDiscoveryServerRegistration(ObjectProvider<Registration> registration,
				ObjectProvider<ServiceRegistry<?>> registry,
				ObjectProvider<AbstractAutoServiceRegistration<?>> autoRegistration, RdmaProvider provider,
				RpcRdmaProperties properties) {
			return new DiscoveryServerRegistration(registration, registry, autoRegistration, provider.name(),
					properties.getServer().getVersions());
		}

	}

}

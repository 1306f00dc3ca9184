package io.rpcrdma.spring.boot.autoconfigure.provider;

import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaProperties;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the RDMA provider named by {@code rpcrdma.provider}, opened with the
 * settings under {@code rpcrdma.provider-settings.*} and then {@link RdmaProviderCustomizer}s, and the registered memory pool that the server and every client
 * share ({@code rpcrdma.memory.*}).
 */
@AutoConfiguration
@ConditionalOnClass(RdmaProvider.class)
@EnableConfigurationProperties(RpcRdmaProperties.class)
public final class RpcRdmaProviderAutoConfiguration {

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	RdmaProvider rdmaProvider(RpcRdmaProperties properties, ObjectProvider<RdmaProviderCustomizer> customizers) {
		RdmaProviderConfig config = new RdmaProviderConfig(properties.getProviderSettings());
		for (RdmaProviderCustomizer customizer : customizers.orderedStream().toList()) {
			config = customizer.customize(config);
		}
		return RdmaProviders.open(properties.getProvider(), config);
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	RegisteredMemoryPool rdmaMemoryPool(RdmaProvider rdmaProvider, RpcRdmaProperties properties,
			ObjectProvider<MemoryPoolCustomizer> customizers) {
		MemoryPoolConfig config = MemoryPoolConfigs.from(properties);
		for (MemoryPoolCustomizer customizer : customizers.orderedStream().toList()) {
			config = customizer.customize(config);
		}
		return new RegisteredMemoryPool(rdmaProvider.allocateProtectionDomain(), config);
	}

}

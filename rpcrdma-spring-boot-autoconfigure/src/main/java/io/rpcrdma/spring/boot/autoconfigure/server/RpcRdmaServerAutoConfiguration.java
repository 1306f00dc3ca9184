package io.rpcrdma.spring.boot.autoconfigure.server;

import java.util.List;

import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.service.ServiceExporter;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaProperties;
import io.rpcrdma.spring.boot.autoconfigure.export.RpcRdmaServiceExportAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.provider.RpcRdmaProviderAutoConfiguration;
import io.rpcrdma.verbs.RdmaProvider;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of the RPC server that serves the exported
 * {@link io.rpcrdma.spring.boot.RpcService @RpcService} beans, run by
 * {@link RpcRdmaServerLifecycle}. Configured by {@code rpcrdma.server.*}, then by
 * {@link RpcServerCustomizer} beans; off with {@code rpcrdma.server.enabled=false}.
 */
@AutoConfiguration(after = { RpcRdmaProviderAutoConfiguration.class, RpcRdmaServiceExportAutoConfiguration.class })
@ConditionalOnClass(RpcServer.class)
@ConditionalOnBooleanProperty(name = "rpcrdma.server.enabled", matchIfMissing = true)
@ConditionalOnBean({ RdmaProvider.class, RegisteredMemoryPool.class, ServiceExporter.class })
@EnableConfigurationProperties(RpcRdmaProperties.class)
public final class RpcRdmaServerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RpcRdmaServerLifecycle rpcRdmaServerLifecycle(RpcRdmaProperties properties, RdmaProvider provider,
			RegisteredMemoryPool pool, ProgramRegistry registry, ServiceExporter exporter,
			ObjectProvider<RpcServerCustomizer> customizers, ObjectProvider<RpcServerLifecycleListener> listeners,
			Environment environment) {
		List<RpcServerCustomizer> ordered = customizers.orderedStream().toList();
		boolean virtualThreads = RpcServerConfigs.virtualThreadsByDefault(environment);
		return new RpcRdmaServerLifecycle(() -> {
			RpcServer.Config config = RpcServerConfigs.from(properties.getServer(), provider, pool, virtualThreads)
				.withSecurity(RpcSecurityPolicies.from(properties.getServer().getSecurity(), exporter.exported()));
			for (RpcServerCustomizer customizer : ordered) {
				config = customizer.customize(config);
			}
			return config;
		}, registry, exporter, (environment instanceof ConfigurableEnvironment configurable) ? configurable : null,
				listeners.orderedStream().toList());
	}

}

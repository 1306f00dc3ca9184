package io.rpcrdma.spring.boot.autoconfigure.management;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * The {@link RpcRdmaRuntime} health, metrics and the actuator endpoint read, built from the
 * starter's provider, memory, server and client beans.
 */
@AutoConfiguration(afterName = { "io.rpcrdma.spring.boot.autoconfigure.provider.RpcRdmaProviderAutoConfiguration",
		"io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerAutoConfiguration",
		"io.rpcrdma.spring.boot.autoconfigure.client.RpcRdmaClientAutoConfiguration" })
@ConditionalOnBean(RdmaProvider.class)
public final class RpcRdmaRuntimeAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RpcRdmaRuntime rpcrdmaRuntime(ObjectProvider<RdmaProvider> provider, ObjectProvider<RegisteredMemoryPool> pool) {
		return new SuppliedRpcRdmaRuntime(provider::getIfAvailable, pool::getIfAvailable, () -> false, Optional::empty,
				List::of, Map::of);
	}

}

package io.rpcrdma.spring.boot.autoconfigure.metrics;

import java.util.concurrent.CompletableFuture;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.observation.ObservationRegistry;
import io.rpcrdma.service.ServiceCallObserver;
import io.rpcrdma.spring.boot.autoconfigure.management.RpcRdmaRuntime;
import io.rpcrdma.spring.boot.autoconfigure.management.RpcRdmaRuntimeAutoConfiguration;

/**
 * Service call observations (timers {@code rpcrdma.server.calls} and
 * {@code rpcrdma.client.calls}, and spans when tracing is on) through the application's
 * {@link ObservationRegistry}, and meter binders for memory, server and clients. Every meter
 * is listed in docs/metrics.md.
 */
@AutoConfiguration(after = RpcRdmaRuntimeAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
public final class RpcRdmaMetricsAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(ObservationRegistry.class)
	@ConditionalOnBean(ObservationRegistry.class)
	static class ObservationConfiguration {

		@Bean
		@ConditionalOnMissingBean(ServiceCallObserver.class)
		ObservationServiceCallObserver rpcrdmaServiceCallObserver(ObservationRegistry registry,
				ObjectProvider<RpcRdmaClientMetrics> clientMetrics) {
			// Pools open on a client's first call: bind their meters once such a call ends, off
			// the completion thread the call ended on (registering meters takes locks).
			return new ObservationServiceCallObserver(registry, () -> CompletableFuture
				.runAsync(() -> clientMetrics.ifAvailable(RpcRdmaClientMetrics::bindNewClients)));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterBinder.class)
	static class MeterBinderConfiguration {

		@Bean
		@ConditionalOnBean(RpcRdmaRuntime.class)
		@ConditionalOnMissingBean
		RpcRdmaMemoryMetrics rpcrdmaMemoryMetrics(RpcRdmaRuntime runtime) {
			return new RpcRdmaMemoryMetrics(runtime);
		}

		@Bean
		@ConditionalOnBean(RpcRdmaRuntime.class)
		@ConditionalOnMissingBean
		RpcRdmaServerMetrics rpcrdmaServerMetrics(RpcRdmaRuntime runtime) {
			return new RpcRdmaServerMetrics(runtime);
		}

		@Bean
		@ConditionalOnBean(RpcRdmaRuntime.class)
		@ConditionalOnMissingBean
		RpcRdmaClientMetrics rpcrdmaClientMetrics(RpcRdmaRuntime runtime) {
			return new RpcRdmaClientMetrics(runtime);
		}

	}

}

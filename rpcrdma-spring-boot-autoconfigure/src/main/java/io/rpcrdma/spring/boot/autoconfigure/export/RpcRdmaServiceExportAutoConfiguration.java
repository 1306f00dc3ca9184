package io.rpcrdma.spring.boot.autoconfigure.export;

import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.service.RpcServerInterceptor;
import io.rpcrdma.service.ServiceCallObserver;
import io.rpcrdma.service.ServiceExporter;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.spring.boot.RpcServiceBeanExporter;
import io.rpcrdma.spring.boot.autoconfigure.service.RpcRdmaServiceAutoConfiguration;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration that serves {@link io.rpcrdma.spring.boot.RpcService @RpcService}
 * beans: the {@link ProgramRegistry} the server dispatches from, the
 * {@link ServiceExporter} that registers each bean's programs in it (watched by the
 * application's {@link ServiceCallObserver}, if any), and the exporter of the beans.
 * Off with {@code rpcrdma.server.enabled=false}.
 */
@AutoConfiguration(after = RpcRdmaServiceAutoConfiguration.class)
@ConditionalOnClass(ServiceExporter.class)
@ConditionalOnBooleanProperty(name = "rpcrdma.server.enabled", matchIfMissing = true)
public final class RpcRdmaServiceExportAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ProgramRegistry rpcRdmaProgramRegistry() {
		return new ProgramRegistry();
	}

	@Bean
	@ConditionalOnMissingBean
	ServiceExporter rpcRdmaServiceExporter(ServiceIntrospector introspector, ProgramRegistry registry,
			ObjectProvider<ServiceCallObserver> observer, ObjectProvider<RpcServerInterceptor> interceptors) {
		return new ServiceExporter(introspector, registry, observer.getIfAvailable(() -> ServiceCallObserver.NONE),
				interceptors.orderedStream().toList());
	}

	@Bean
	@ConditionalOnMissingBean
	RpcServiceBeanExporter rpcServiceBeanExporter(ListableBeanFactory beanFactory, ServiceExporter exporter) {
		return new RpcServiceBeanExporter(beanFactory, exporter);
	}

}

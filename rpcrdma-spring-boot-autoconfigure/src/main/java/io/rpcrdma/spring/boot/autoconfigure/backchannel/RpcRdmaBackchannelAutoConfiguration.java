package io.rpcrdma.spring.boot.autoconfigure.backchannel;

import io.rpcrdma.backchannel.CallbackServices;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.ServerExecutor;
import io.rpcrdma.service.ServiceCallObserver;
import io.rpcrdma.service.ServiceClientFactory;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.spring.boot.RpcCallbackService;
import io.rpcrdma.spring.boot.RpcCallbackServiceExporter;
import io.rpcrdma.spring.boot.RpcCallbacks;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaProperties;
import io.rpcrdma.spring.boot.autoconfigure.client.RpcRdmaClientAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.service.RpcRdmaServiceAutoConfiguration;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of calls from servers back to their clients on the same connection
 * (RFC 8167): {@link RpcCallbacks} for {@code @RpcService} methods on the server side, and,
 * when the application has {@link RpcCallbackService @RpcCallbackService} beans, the
 * {@link CallbackServices} every named client's connections serve them with
 * ({@code rpcrdma.backchannel.*}).
 */
@AutoConfiguration(after = RpcRdmaServiceAutoConfiguration.class, before = RpcRdmaClientAutoConfiguration.class)
@ConditionalOnClass(ServiceClientFactory.class)
@ConditionalOnBean(ServiceIntrospector.class)
@EnableConfigurationProperties(RpcRdmaProperties.class)
public final class RpcRdmaBackchannelAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RpcCallbacks rpcCallbacks(ServiceIntrospector introspector, ObjectProvider<ServiceCallObserver> observer) {
		return new RpcCallbacks(
				new ServiceClientFactory(introspector, observer.getIfAvailable(() -> ServiceCallObserver.NONE)));
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnBean(annotation = RpcCallbackService.class)
	@ConditionalOnMissingBean(name = "rpcCallbackExecutor")
	ServerExecutor rpcCallbackExecutor(RpcRdmaProperties properties) {
		RpcRdmaProperties.Backchannel backchannel = properties.getBackchannel();
		return ServerExecutor.boundedPool(backchannel.getThreads(), backchannel.getQueueCapacity(), "rpcrdma-callback");
	}

	@Bean
	@ConditionalOnBean(annotation = RpcCallbackService.class)
	@ConditionalOnMissingBean
	CallbackServices rpcCallbackServices(RpcRdmaProperties properties, ServerExecutor rpcCallbackExecutor) {
		// Filled once every singleton exists (RpcCallbackServiceExporter): connections open on
		// a client's first call, and a callback that arrives earlier gets PROG_UNAVAIL.
		return new CallbackServices(new ProgramRegistry(), rpcCallbackExecutor, properties.getBackchannel().getCredits());
	}

	@Bean
	@ConditionalOnBean(CallbackServices.class)
	static RpcCallbackServiceExporter rpcCallbackServiceExporter(ObjectProvider<CallbackServices> callbacks,
			ObjectProvider<ServiceIntrospector> introspector, ObjectProvider<ServiceCallObserver> observer) {
		return new RpcCallbackServiceExporter(callbacks, introspector, observer);
	}

}

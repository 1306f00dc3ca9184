package io.rpcrdma.spring.boot.autoconfigure.export;

import io.rpcrdma.service.ServiceExporter;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * The exporter of {@code @RpcService} beans at its old name. It moved with the programming
 * model to {@code rpcrdma-spring}, which needs no Spring Boot; this type delegates to it so
 * that code constructing it still compiles.
 *
 * @deprecated since 0.1.0, use {@link io.rpcrdma.spring.boot.RpcServiceBeanExporter}
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public final class RpcServiceBeanExporter implements SmartInitializingSingleton {

	private final SmartInitializingSingleton delegate;

	/**
	 * @param beanFactory where the {@code @RpcService} beans are
	 * @param exporter what serves them
	 */
	public RpcServiceBeanExporter(ListableBeanFactory beanFactory, ServiceExporter exporter) {
		this.delegate = MovedExporter.of(beanFactory, exporter);
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.delegate.afterSingletonsInstantiated();
	}

}

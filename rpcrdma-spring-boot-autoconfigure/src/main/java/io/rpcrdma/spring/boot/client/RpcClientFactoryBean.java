package io.rpcrdma.spring.boot.client;

import java.util.Objects;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.FactoryBean;

/**
 * Creates one client proxy bean through the context's {@link RpcClientFactory}.
 *
 * @param <T> the service interface
 */
public final class RpcClientFactoryBean<T> implements FactoryBean<T>, BeanFactoryAware {

	private final Class<T> serviceInterface;

	private final String clientName;

	private BeanFactory beanFactory;

	/**
	 * @param serviceInterface the service interface
	 * @param clientName the client name
	 */
	public RpcClientFactoryBean(Class<T> serviceInterface, String clientName) {
		this.serviceInterface = Objects.requireNonNull(serviceInterface, "serviceInterface");
		this.clientName = Objects.requireNonNull(clientName, "clientName");
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public T getObject() {
		return this.beanFactory.getBean(RpcClientFactory.class).createClient(this.serviceInterface, this.clientName);
	}

	@Override
	public Class<T> getObjectType() {
		return this.serviceInterface;
	}

}

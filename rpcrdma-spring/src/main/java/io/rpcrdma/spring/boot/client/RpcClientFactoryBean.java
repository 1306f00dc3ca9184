package io.rpcrdma.spring.boot.client;

import java.util.Objects;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;

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
		RpcClientFactory factory;
		try {
			factory = this.beanFactory.getBean(RpcClientFactory.class);
		}
		catch (NoSuchBeanDefinitionException ex) {
			throw new IllegalStateException("The " + this.serviceInterface.getName() + " client '" + this.clientName
					+ "' needs an RpcClientFactory bean, and there is none: the rpcrdma client auto-configuration did "
					+ "not run (it needs an RdmaProvider and a RegisteredMemoryPool) or was excluded; declare one", ex);
		}
		return factory.createClient(this.serviceInterface, this.clientName);
	}

	@Override
	public Class<T> getObjectType() {
		return this.serviceInterface;
	}

}

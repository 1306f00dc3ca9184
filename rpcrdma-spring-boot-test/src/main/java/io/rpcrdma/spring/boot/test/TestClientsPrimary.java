package io.rpcrdma.spring.boot.test;

import java.util.List;

import io.rpcrdma.spring.boot.client.RpcClientFactoryBean;

import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * Leaves the {@link RpcRdmaTest#clients() test's client proxies} the only primary beans of
 * their interfaces: the application may import clients of the same interfaces
 * ({@code @ImportRpcClients} on its main class), whose proxies are primary too, and two
 * primaries of one type make injecting it fail. Those proxies stay, reachable by their
 * client name's qualifier, and call the test's server too ({@link TestServerClients}).
 *
 * @param clients the interfaces the test lists
 */
record TestClientsPrimary(List<Class<?>> clients) implements BeanFactoryPostProcessor {

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		String prefix = RpcRdmaTest.TEST_CLIENT + "#";
		for (String name : beanFactory.getBeanDefinitionNames()) {
			BeanDefinition definition = beanFactory.getBeanDefinition(name);
			if (!name.startsWith(prefix) && definition.isPrimary()
					&& RpcClientFactoryBean.class.getName().equals(definition.getBeanClassName())
					&& this.clients.contains(definition.getAttribute(FactoryBean.OBJECT_TYPE_ATTRIBUTE))) {
				definition.setPrimary(false);
			}
		}
	}

}

package io.rpcrdma.spring.boot.test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAddress;
import io.rpcrdma.spring.boot.client.RpcClientsRegistrar;

import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Runs a test context over its test transport: the provider, port 0, and for the loopback
 * provider an in-JVM host name of its own (generated per context unless the test names one),
 * so that no two live contexts share an address. Every client of the context calls its own
 * server ({@link TestServerClients}), and the test's client proxies are the primary beans of
 * their interfaces ({@link TestClientsPrimary}). A record: the provider, the address and the
 * client interfaces are part of the test context cache key.
 *
 * @param provider the RDMA provider
 * @param address the in-JVM host name, or empty to generate one per context
 * @param clients interfaces to register proxies of, calling the context's own server
 */
record RpcRdmaTestContextCustomizer(String provider, String address, List<Class<?>> clients)
		implements ContextCustomizer {

	static final String PROPERTY_SOURCE_NAME = "rpcrdmaTestTransport";

	private static final AtomicLong contexts = new AtomicLong();

	@Override
	public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("rpcrdma.provider", this.provider);
		properties.put("rpcrdma.server.port", 0);
		// The test's clients call this server: it listens whatever application.yml says.
		properties.put("rpcrdma.server.enabled", true);
		if (RpcRdmaAddress.LOOPBACK_PROVIDER.equalsIgnoreCase(this.provider)) {
			properties.put("rpcrdma.server.address",
					this.address.isEmpty() ? "rpcrdma-test-" + contexts.incrementAndGet() : this.address);
		}
		else {
			properties.put("rpcrdma.server.address", "127.0.0.1");
		}
		context.getEnvironment().getPropertySources().addFirst(new MapPropertySource(PROPERTY_SOURCE_NAME, properties));
		if (!(context instanceof BeanDefinitionRegistry registry)) {
			throw new IllegalStateException("@AutoConfigureRpcRdma needs a context that accepts bean definitions, got "
					+ context.getClass().getName());
		}
		registry.registerBeanDefinition(TestServerClients.class.getName(), new RootBeanDefinition(TestServerClients.class));
		if (!this.clients.isEmpty()) {
			context.addBeanFactoryPostProcessor(new TestClientsPrimary(this.clients));
			for (Class<?> client : this.clients) {
				RpcClientsRegistrar.register(registry, client, RpcRdmaTest.TEST_CLIENT);
			}
		}
	}

}

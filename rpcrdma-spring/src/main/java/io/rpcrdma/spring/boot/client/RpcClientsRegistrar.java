package io.rpcrdma.spring.boot.client;

import io.rpcrdma.service.RpcProgram;

import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers the proxy beans of {@link ImportRpcClients @ImportRpcClients}. Each bean is
 * named {@code <client>#<interface name>} and qualified with the client name (select one
 * of several clients of an interface with {@code @Qualifier("<client>")}); importing the same
 * interface for the same client twice registers it once.
 * <p>
 * The proxies are primary beans: an application that serves an interface and also imports a
 * client of it (typical in tests) injects the client where it asks for the interface, and
 * the {@link io.rpcrdma.spring.boot.RpcService @RpcService} implementation where it asks for
 * the implementation class.
 */
public final class RpcClientsRegistrar implements ImportBeanDefinitionRegistrar {

	@Override
	public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
		metadata.getAnnotations().stream(ImportRpcClients.class).forEach((annotation) -> register(annotation, registry));
	}

	private static void register(MergedAnnotation<ImportRpcClients> annotation, BeanDefinitionRegistry registry) {
		String client = annotation.getString("client");
		for (Class<?> type : annotation.getClassArray("types")) {
			register(registry, type, client);
		}
	}

	/**
	 * Registers a proxy bean unless one for the interface and client exists.
	 * @param registry where
	 * @param serviceInterface the service interface
	 * @param clientName the client name
	 * @return the bean name
	 * @throws IllegalArgumentException if the type is not an interface annotated
	 * {@link RpcProgram}, or the client name is blank
	 */
	public static String register(BeanDefinitionRegistry registry, Class<?> serviceInterface, String clientName) {
		if (!serviceInterface.isInterface() || !serviceInterface.isAnnotationPresent(RpcProgram.class)) {
			throw new InvalidRpcClientInterfaceException(serviceInterface);
		}
		if (clientName == null || clientName.isBlank()) {
			throw new IllegalArgumentException("@ImportRpcClients for " + serviceInterface.getName()
					+ " has a blank client name; name the client configured under rpcrdma.client.<name>");
		}
		String beanName = clientName + "#" + serviceInterface.getName();
		if (!registry.containsBeanDefinition(beanName)) {
			RootBeanDefinition definition = new RootBeanDefinition(RpcClientFactoryBean.class);
			definition.getConstructorArgumentValues().addIndexedArgumentValue(0, serviceInterface);
			definition.getConstructorArgumentValues().addIndexedArgumentValue(1, clientName);
			definition.setTargetType(ResolvableType.forClassWithGenerics(RpcClientFactoryBean.class, serviceInterface));
			definition.setAttribute(FactoryBean.OBJECT_TYPE_ATTRIBUTE, serviceInterface);
			definition.setPrimary(true);
			definition.addQualifier(new AutowireCandidateQualifier(Qualifier.class, clientName));
			registry.registerBeanDefinition(beanName, definition);
		}
		return beanName;
	}

}

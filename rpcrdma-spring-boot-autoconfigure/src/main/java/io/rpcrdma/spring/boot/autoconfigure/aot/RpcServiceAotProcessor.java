package io.rpcrdma.spring.boot.autoconfigure.aot;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.LinkedHashSet;
import java.util.Set;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

import io.rpcrdma.service.RpcProgram;
import io.rpcrdma.spring.boot.RpcService;
import io.rpcrdma.spring.boot.client.RpcClientFactoryBean;

/**
 * Registers, while Spring processes the application ahead of time, the hints its RPC services
 * and clients need in a native image: for each client interface ({@code @ImportRpcClients})
 * a JDK proxy; for each client and served interface, reflection on its methods (the service
 * binding reads their annotations and generic signatures, and the server calls them through
 * method handles) and binding hints for the records, enums and other types of its parameters
 * and results (their codecs read components and call canonical constructors); for each
 * {@code @RpcService} bean's class, its public methods.
 */
final class RpcServiceAotProcessor implements BeanFactoryInitializationAotProcessor {

	@Override
	public BeanFactoryInitializationAotContribution processAheadOfTime(ConfigurableListableBeanFactory beanFactory) {
		Set<Class<?>> clients = new LinkedHashSet<>();
		Set<Class<?>> served = new LinkedHashSet<>();
		Set<Class<?>> implementations = new LinkedHashSet<>();
		ClassLoader classLoader = beanFactory.getBeanClassLoader();
		for (String name : beanFactory.getBeanDefinitionNames()) {
			BeanDefinition definition = beanFactory.getBeanDefinition(name);
			if (RpcClientFactoryBean.class.getName().equals(definition.getBeanClassName())
					&& definition.getAttribute(FactoryBean.OBJECT_TYPE_ATTRIBUTE) instanceof Class<?> type) {
				clients.add(type);
			}
			Class<?> beanType = beanFactory.getType(name, false);
			if (beanType != null && beanFactory.findAnnotationOnBean(name, RpcService.class, false) != null) {
				Class<?> user = ClassUtils.getUserClass(beanType);
				implementations.add(user);
				for (Class<?> candidate : ClassUtils.getAllInterfacesForClassAsSet(user, classLoader)) {
					if (AnnotatedElementUtils.hasAnnotation(candidate, RpcProgram.class)) {
						served.add(candidate);
					}
				}
			}
		}
		if (clients.isEmpty() && served.isEmpty()) {
			return null;
		}
		return (generationContext, code) -> registerHints(generationContext.getRuntimeHints(), clients, served,
				implementations);
	}

	static void registerHints(RuntimeHints hints, Set<Class<?>> clients, Set<Class<?>> served,
			Set<Class<?>> implementations) {
		BindingReflectionHintsRegistrar bindings = new BindingReflectionHintsRegistrar();
		for (Class<?> client : clients) {
			hints.proxies().registerJdkProxy(client);
		}
		Set<Class<?>> interfaces = new LinkedHashSet<>(clients);
		interfaces.addAll(served);
		for (Class<?> serviceInterface : interfaces) {
			hints.reflection().registerType(serviceInterface, MemberCategory.INVOKE_PUBLIC_METHODS);
			for (Method method : serviceInterface.getMethods()) {
				for (Type parameter : method.getGenericParameterTypes()) {
					bindings.registerReflectionHints(hints.reflection(), parameter);
				}
				bindings.registerReflectionHints(hints.reflection(), method.getGenericReturnType());
				for (Class<?> exception : method.getExceptionTypes()) {
					// Faults are rebuilt on the client from the exception's class and message.
					hints.reflection().registerType(exception, MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS);
				}
			}
		}
		for (Class<?> implementation : implementations) {
			hints.reflection().registerType(implementation, MemberCategory.INVOKE_PUBLIC_METHODS);
		}
	}

}

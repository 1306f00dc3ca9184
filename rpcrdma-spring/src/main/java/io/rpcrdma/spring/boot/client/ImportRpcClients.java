package io.rpcrdma.spring.boot.client;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.Import;
import org.springframework.core.annotation.AliasFor;

/**
 * Registers a proxy bean for each listed service interface, calling through the named
 * client ({@code rpcrdma.client.<client>.*}), like Spring Framework's
 * {@code @ImportHttpServices}. The beans are ordinary singletons of the interface type: inject
 * them through constructors; they are never {@code null} and open their connections on the
 * first call.
 * <pre class="code">
 * &#64;Configuration
 * &#64;ImportRpcClients(client = "inventory", types = Inventory.class)
 * class ClientConfig {
 * }
 * </pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Repeatable(ImportRpcClients.Container.class)
@Import(RpcClientsRegistrar.class)
public @interface ImportRpcClients {

	/** The client name used when none is given. */
	String DEFAULT_CLIENT = "default";

	/** @return the service interfaces, annotated {@link io.rpcrdma.service.RpcProgram} */
	@AliasFor("types")
	Class<?>[] value() default {};

	/** @return the service interfaces, annotated {@link io.rpcrdma.service.RpcProgram} */
	@AliasFor("value")
	Class<?>[] types() default {};

	/** @return the client name, configured under {@code rpcrdma.client.<name>} */
	String client() default DEFAULT_CLIENT;

	/** Holds repeated {@link ImportRpcClients} annotations. */
	@Target(ElementType.TYPE)
	@Retention(RetentionPolicy.RUNTIME)
	@Documented
	@Import(RpcClientsRegistrar.class)
	@interface Container {

		/** @return the annotations */
		ImportRpcClients[] value();

	}

}

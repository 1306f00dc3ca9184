package io.rpcrdma.spring.boot;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.core.annotation.AliasFor;
import org.springframework.stereotype.Component;

/**
 * Marks a bean whose {@link io.rpcrdma.service.RpcProgram @RpcProgram} interfaces are
 * served over RPC-over-RDMA. Every interface the class implements that is annotated
 * {@code @RpcProgram} is exported when the application context has created its singletons;
 * a program version served twice fails start-up, naming both beans.
 * <p>
 * On a {@code @Bean} method it marks the bean that method returns.
 * <p>
 * A {@link Component @Component} stereotype: classes annotated {@code @RpcService} are
 * picked up by component scanning, and by the {@code @RpcRdmaTest} slice.
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Component
public @interface RpcService {

	/**
	 * @return the bean name, if the default one should not be used
	 */
	@AliasFor(annotation = Component.class)
	String value() default "";

}

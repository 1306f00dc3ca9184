package io.rpcrdma.spring.boot;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.core.annotation.AliasFor;
import org.springframework.stereotype.Component;

/**
 * Marks a bean whose {@link io.rpcrdma.service.RpcProgram @RpcProgram} interfaces this
 * application serves to the servers it calls, on the connections it opened to them (RFC 8167,
 * the backward direction): a server's {@code @RpcService} method calls them back through
 * {@link RpcCallbacks}, without a connection the other way. Exported to every named client's
 * connections, not on this application's own server.
 * <p>
 * A {@link Component @Component} stereotype, picked up by component scanning.
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Component
public @interface RpcCallbackService {

	/**
	 * @return the bean name, if the default one should not be used
	 */
	@AliasFor(annotation = Component.class)
	String value() default "";

}

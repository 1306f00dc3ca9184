package io.rpcrdma.spring.boot.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;

import org.springframework.beans.factory.annotation.Value;

/**
 * Injects the port the RPC server listens on (the {@value RpcRdmaServerLifecycle#PORT_PROPERTY}
 * property), like {@code @LocalServerPort}: useful with {@code rpcrdma.server.port=0}. The
 * property exists once the server has started, at the end of the context's refresh, so inject
 * it into tests rather than into beans.
 */
@Target({ ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Value("${" + RpcRdmaServerLifecycle.PORT_PROPERTY + "}")
public @interface LocalRpcRdmaPort {

}

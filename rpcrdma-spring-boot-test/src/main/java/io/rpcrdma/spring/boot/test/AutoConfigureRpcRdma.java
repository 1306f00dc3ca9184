package io.rpcrdma.spring.boot.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * Brings the rpcrdma auto-configuration into a test, and runs it over a test transport: by
 * default the in-JVM loopback provider, listening on any free port of an in-JVM host name of
 * its own, so that test contexts (cached, parallel or nested) never collide and never touch
 * the network. The server's port is injectable with {@link LocalRpcRdmaPort @LocalRpcRdmaPort}.
 * <p>
 * Use it on a {@code @SpringBootTest}; {@link RpcRdmaTest @RpcRdmaTest} includes it. The
 * provider and the address are part of the test context's cache key.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
public @interface AutoConfigureRpcRdma {

	/**
	 * @return the RDMA provider the test runs over: "loopback" (in-JVM, the default) or
	 * "siw" (software iWARP over TCP on 127.0.0.1)
	 */
	String provider() default "loopback";

	/**
	 * @return the in-JVM host name a loopback server listens on; empty (the default) for a
	 * name unique to the test context
	 */
	String address() default "";

}

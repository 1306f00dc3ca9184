package io.rpcrdma.spring.boot.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.autoconfigure.OverrideAutoConfiguration;
import org.springframework.boot.test.context.filter.annotation.TypeExcludeFilters;
import org.springframework.context.annotation.ComponentScan.Filter;
import org.springframework.core.annotation.AliasFor;
import org.springframework.test.context.BootstrapWith;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * A test slice for RPC services: only the rpcrdma auto-configuration, the
 * {@link io.rpcrdma.spring.boot.RpcService @RpcService} beans (all, or those listed in
 * {@link #services()}), the rpcrdma customizers, and proxies of the {@link #clients()}
 * under test, which call the slice's own server. It runs over the in-JVM loopback provider
 * on a host name unique to the test context ({@link AutoConfigureRpcRdma}).
 * <pre class="code">
 * &#64;RpcRdmaTest(clients = Greeter.class)
 * class GreeterServiceTest {
 *
 *     &#64;Test
 *     void greets(&#64;Autowired Greeter greeter) {
 *         assertThat(greeter.greet("Ada")).isEqualTo("Hello, Ada");
 *     }
 *
 * }
 * </pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@BootstrapWith(RpcRdmaTestContextBootstrapper.class)
@ExtendWith(SpringExtension.class)
@OverrideAutoConfiguration(enabled = false)
@TypeExcludeFilters(RpcRdmaTypeExcludeFilter.class)
@AutoConfigureRpcRdma
@ImportAutoConfiguration
public @interface RpcRdmaTest {

	/** The client name of the {@link #clients()} proxies; without an address it calls the slice's server. */
	String TEST_CLIENT = "rpcrdma-test";

	/**
	 * @return properties in {@code key=value} form added to the environment before the test
	 * runs
	 */
	String[] properties() default {};

	/**
	 * @return the {@code @RpcService} classes to include; empty for all of them
	 */
	Class<?>[] services() default {};

	/**
	 * @return service interfaces to register proxy beans of, calling the slice's own server
	 * through the {@value #TEST_CLIENT} client
	 */
	Class<?>[] clients() default {};

	/**
	 * @return the RDMA provider the test runs over
	 */
	@AliasFor(annotation = AutoConfigureRpcRdma.class)
	String provider() default "loopback";

	/**
	 * @return the in-JVM host name the server listens on; empty for one unique to the context
	 */
	@AliasFor(annotation = AutoConfigureRpcRdma.class)
	String address() default "";

	/**
	 * @return whether the default filters (the {@code @RpcService} beans) apply
	 */
	boolean useDefaultFilters() default true;

	/**
	 * @return further components to include
	 */
	Filter[] includeFilters() default {};

	/**
	 * @return components to exclude
	 */
	Filter[] excludeFilters() default {};

	/**
	 * @return auto-configuration to leave out
	 */
	@AliasFor(annotation = ImportAutoConfiguration.class, attribute = "exclude")
	Class<?>[] excludeAutoConfiguration() default {};

}

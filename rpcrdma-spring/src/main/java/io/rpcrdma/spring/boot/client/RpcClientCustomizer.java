package io.rpcrdma.spring.boot.client;

/**
 * Adjusts a named client's settings after {@code rpcrdma.client.<name>.*} has been applied.
 * Customizer beans are applied in {@link org.springframework.core.Ordered order}, to every
 * client; look at {@link RpcClientSpec#name()} to change only some.
 */
@FunctionalInterface
public interface RpcClientCustomizer {

	/**
	 * @param spec the settings so far
	 * @return the settings to use (a changed copy, or {@code spec} itself)
	 */
	RpcClientSpec customize(RpcClientSpec spec);

}

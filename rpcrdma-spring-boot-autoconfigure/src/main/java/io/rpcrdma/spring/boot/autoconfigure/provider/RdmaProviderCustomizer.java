package io.rpcrdma.spring.boot.autoconfigure.provider;

import io.rpcrdma.verbs.RdmaProviderConfig;

/**
 * Adjusts the settings the auto-configured {@link io.rpcrdma.verbs.RdmaProvider} is opened
 * with. Customizer beans are applied in {@link org.springframework.core.Ordered order}.
 */
@FunctionalInterface
public interface RdmaProviderCustomizer {

	/**
	 * @param config the settings so far
	 * @return the settings to use (a changed copy, or {@code config} itself)
	 */
	RdmaProviderConfig customize(RdmaProviderConfig config);

}

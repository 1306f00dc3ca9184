package io.rpcrdma.spring.boot.autoconfigure.provider;

import io.rpcrdma.memory.MemoryPoolConfig;

/**
 * Adjusts the settings of the auto-configured
 * {@link io.rpcrdma.memory.RegisteredMemoryPool}, for example to add size classes.
 * Customizer beans are applied in {@link org.springframework.core.Ordered order}.
 */
@FunctionalInterface
public interface MemoryPoolCustomizer {

	/**
	 * @param config the settings so far, built from {@code rpcrdma.memory.*}
	 * @return the settings to use
	 */
	MemoryPoolConfig customize(MemoryPoolConfig config);

}

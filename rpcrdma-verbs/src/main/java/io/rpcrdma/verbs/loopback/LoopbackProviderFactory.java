package io.rpcrdma.verbs.loopback;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.soft.SoftwareProviderFactory;

/**
 * Discovers the in-JVM {@code loopback} provider; always available.
 */
public final class LoopbackProviderFactory extends SoftwareProviderFactory {

	/** The provider name. */
	public static final String NAME = "loopback";

	/**
	 * Creates the factory; {@link java.util.ServiceLoader} does.
	 */
	public LoopbackProviderFactory() {
		super(NAME, 100);
	}

	@Override
	public RdmaProvider create(RdmaProviderConfig config) {
		return new LoopbackProvider(config);
	}

}

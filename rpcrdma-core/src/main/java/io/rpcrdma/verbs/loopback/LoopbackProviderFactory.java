package io.rpcrdma.verbs.loopback;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviderFactory;

/**
 * Discovers the in-JVM {@code loopback} provider; always available.
 */
public final class LoopbackProviderFactory implements RdmaProviderFactory {

	/** The provider name. */
	public static final String NAME = "loopback";

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public boolean isAvailable() {
		return true;
	}

	@Override
	public String unavailableReason() {
		return "available";
	}

	@Override
	public int autoPriority() {
		return 100;
	}

	@Override
	public RdmaProvider create(RdmaProviderConfig config) {
		return new LoopbackProvider(config);
	}

}

package io.rpcrdma.verbs.siw;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.soft.SoftwareProviderFactory;

/**
 * Discovers the software iWARP provider {@code siw}: RDMAP/DDP/MPA over plain TCP, wire
 * compatible with Linux SoftiWARP. It needs nothing but TCP, so it is always available and
 * is the default provider when no RDMA adapter is present (priority 200, above loopback).
 */
public final class SiwProviderFactory extends SoftwareProviderFactory {

	/** The provider name. */
	public static final String NAME = "siw";

	/**
	 * Creates the factory; {@link java.util.ServiceLoader} does.
	 */
	public SiwProviderFactory() {
		super(NAME, 200);
	}

	@Override
	public RdmaProvider create(RdmaProviderConfig config) {
		return new SiwProvider(SiwSettings.from(config));
	}

}

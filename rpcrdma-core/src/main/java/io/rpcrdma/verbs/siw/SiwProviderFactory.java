package io.rpcrdma.verbs.siw;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviderFactory;

/**
 * Discovers the software iWARP provider {@code siw}: RDMAP/DDP/MPA over plain TCP, wire
 * compatible with Linux SoftiWARP. It needs nothing but TCP, so it is always available and
 * is the default provider when no RDMA adapter is present (priority 200, above loopback).
 */
public final class SiwProviderFactory implements RdmaProviderFactory {

	/** The provider name. */
	public static final String NAME = "siw";

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
		return 200;
	}

	@Override
	public RdmaProvider create(RdmaProviderConfig config) {
		return new SiwProvider(SiwSettings.from(config));
	}

}

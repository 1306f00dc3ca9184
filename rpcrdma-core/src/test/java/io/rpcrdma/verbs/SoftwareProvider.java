package io.rpcrdma.verbs;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * The two providers that run on any machine, for the suites of the RPC stack that run on each
 * ({@code @ParameterizedClass @EnumSource(SoftwareProvider.class)}) instead of one subclass
 * per provider that differs only in how it opens the provider and where it listens.
 */
public enum SoftwareProvider {

	/** In-JVM: a failure here is never the network. */
	LOOPBACK("loopback"),

	/** Software iWARP: real MPA/DDP/RDMAP over TCP on 127.0.0.1. */
	SIW("siw");

	private final String providerName;

	SoftwareProvider(String providerName) {
		this.providerName = providerName;
	}

	/**
	 * Opens a new instance (one "host").
	 * @return the provider
	 */
	public RdmaProvider open() {
		return RdmaProviders.open(this.providerName);
	}

	/**
	 * Where a server of this provider listens: loopback's own name space (a name per suite,
	 * so that suites do not meet), siw's 127.0.0.1; port 0 for any free one.
	 * @param loopbackName the loopback address name of the suite
	 * @return the listen address
	 */
	public InetSocketAddress listenAddress(String loopbackName) {
		return (this == LOOPBACK) ? InetSocketAddress.createUnresolved(loopbackName, 0)
				: new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
	}

	@Override
	public String toString() {
		return this.providerName;
	}

}

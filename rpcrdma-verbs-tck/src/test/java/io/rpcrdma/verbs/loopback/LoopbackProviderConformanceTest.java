package io.rpcrdma.verbs.loopback;

import java.net.InetSocketAddress;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.conformance.ProviderConformanceKit;

/**
 * Runs the provider conformance kit against the in-JVM loopback provider.
 */
class LoopbackProviderConformanceTest extends ProviderConformanceKit {

	@Override
	protected RdmaProvider openProvider() {
		return RdmaProviders.open("loopback");
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return InetSocketAddress.createUnresolved("conformance", 0);
	}

}

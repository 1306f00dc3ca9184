package io.rpcrdma.service.e2e;

import java.net.InetSocketAddress;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * {@link ServiceEndToEndTests} over the loopback provider.
 */
class LoopbackServiceEndToEndTest extends ServiceEndToEndTests {

	@Override
	protected RdmaProvider openProvider() {
		return RdmaProviders.open("loopback");
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return InetSocketAddress.createUnresolved("service-end-to-end", 0);
	}

}

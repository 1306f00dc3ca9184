package io.rpcrdma.transport;

import java.net.InetSocketAddress;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * {@link ResponderContextTests} over the in-JVM loopback provider.
 */
class LoopbackResponderContextTest extends ResponderContextTests {

	@Override
	protected RdmaProvider openProvider() {
		return RdmaProviders.open("loopback");
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return InetSocketAddress.createUnresolved("transport-respondercontext", 0);
	}

}

package io.rpcrdma.transport;

import java.net.InetSocketAddress;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

class LoopbackRfc5666CompatibilityTest extends Rfc5666CompatibilityTests {

	@Override
	protected RdmaProvider openProvider() {
		return RdmaProviders.open("loopback");
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return InetSocketAddress.createUnresolved("transport-rfc5666compatibility", 0);
	}

}

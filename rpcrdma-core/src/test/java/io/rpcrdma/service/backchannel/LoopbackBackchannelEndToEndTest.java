package io.rpcrdma.service.backchannel;

import java.net.InetSocketAddress;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/** {@link BackchannelEndToEndTests} over the in-JVM loopback provider. */
class LoopbackBackchannelEndToEndTest extends BackchannelEndToEndTests {

	@Override
	protected RdmaProvider openProvider() {
		return RdmaProviders.open("loopback");
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return InetSocketAddress.createUnresolved("backchannel", 0);
	}

}

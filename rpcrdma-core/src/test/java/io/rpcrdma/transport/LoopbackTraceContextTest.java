package io.rpcrdma.transport;

import java.net.InetSocketAddress;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

class LoopbackTraceContextTest extends TraceContextTests {

	@Override
	protected RdmaProvider openProvider() {
		return RdmaProviders.open("loopback");
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return InetSocketAddress.createUnresolved("transport-trace", 0);
	}

}

package io.rpcrdma.transport;

import java.net.InetSocketAddress;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

class SiwBackwardDirectionTest extends BackwardDirectionTests {

	@Override
	protected RdmaProvider openProvider() {
		return RdmaProviders.open("siw");
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0);
	}

}

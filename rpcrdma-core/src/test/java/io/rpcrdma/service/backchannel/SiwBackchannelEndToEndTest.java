package io.rpcrdma.service.backchannel;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/** {@link BackchannelEndToEndTests} over software iWARP on TCP 127.0.0.1. */
class SiwBackchannelEndToEndTest extends BackchannelEndToEndTests {

	@Override
	protected RdmaProvider openProvider() {
		return RdmaProviders.open("siw");
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
	}

}

package io.rpcrdma.service.e2e;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * {@link ServiceEndToEndTests} over software iWARP on 127.0.0.1.
 */
class SiwServiceEndToEndTest extends ServiceEndToEndTests {

	@Override
	protected RdmaProvider openProvider() {
		return RdmaProviders.open("siw");
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
	}

}

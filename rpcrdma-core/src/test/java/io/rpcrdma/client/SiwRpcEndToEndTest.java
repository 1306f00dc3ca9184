package io.rpcrdma.client;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * {@link RpcEndToEndTests} over the software iWARP provider: RPC client and server over real
 * MPA/DDP/RDMAP on TCP 127.0.0.1.
 */
class SiwRpcEndToEndTest extends RpcEndToEndTests {

	@Override
	protected RdmaProvider openProvider() {
		return RdmaProviders.open("siw");
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
	}

}

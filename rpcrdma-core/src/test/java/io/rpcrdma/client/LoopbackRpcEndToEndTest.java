package io.rpcrdma.client;

import java.net.InetSocketAddress;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

class LoopbackRpcEndToEndTest extends RpcEndToEndTests {

	@Override
	protected RdmaProvider openProvider() {
		return RdmaProviders.open("loopback");
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return InetSocketAddress.createUnresolved("rpc-end-to-end", 0);
	}

}

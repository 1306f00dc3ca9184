package io.rpcrdma.transport;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * {@link TraceContextTests} over the software iWARP provider: real MPA/DDP/RDMAP over TCP on
 * 127.0.0.1.
 */
class SiwTraceContextTest extends TraceContextTests {

	@Override
	protected RdmaProvider openProvider() {
		return RdmaProviders.open("siw");
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
	}

}

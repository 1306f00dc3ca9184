package io.rpcrdma.server;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * {@link DuplicateRequestHostilePeerTests} over software iWARP on TCP 127.0.0.1: each
 * requester is a TCP connection from its own ephemeral port.
 */
class SiwDuplicateRequestHostilePeerTest extends DuplicateRequestHostilePeerTests {

	@Override
	protected RdmaProvider openProvider() {
		return RdmaProviders.open("siw");
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
	}

}

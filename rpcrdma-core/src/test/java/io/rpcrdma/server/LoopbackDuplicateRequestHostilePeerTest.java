package io.rpcrdma.server;

import java.net.InetSocketAddress;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * {@link DuplicateRequestHostilePeerTests} over the loopback provider, whose requesters share
 * the host {@code loopback-client} and differ by port.
 */
class LoopbackDuplicateRequestHostilePeerTest extends DuplicateRequestHostilePeerTests {

	@Override
	protected RdmaProvider openProvider() {
		return RdmaProviders.open("loopback");
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return InetSocketAddress.createUnresolved("drc-hostile-peers", 0);
	}

}

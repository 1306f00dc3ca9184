package io.rpcrdma.transport;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * {@link CallCompletionTests} over the software iWARP provider: real MPA/DDP/RDMAP over TCP on
 * 127.0.0.1.
 */
class SiwCallCompletionTest extends CallCompletionTests {

	@Override
	protected RdmaProvider openProvider() {
		return RdmaProviders.open("siw");
	}

	/** The client's and the server's providers each have their own receive threads. */
	@Override
	boolean clientCompletionsHaveTheirOwnThread() {
		return true;
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
	}

}

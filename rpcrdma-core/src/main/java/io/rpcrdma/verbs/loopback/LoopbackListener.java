package io.rpcrdma.verbs.loopback;

import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;

import io.rpcrdma.verbs.ConnectionRequestHandler;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaListener;

/**
 * A listening address of the loopback fabric; connection requests are handed to the
 * handler on the listening provider's engine.
 */
final class LoopbackListener implements RdmaListener {

	private static final System.Logger logger = System.getLogger(LoopbackListener.class.getName());

	private final LoopbackProvider provider;

	private final ConnectionRequestHandler handler;

	private volatile InetSocketAddress address;

	private volatile boolean closed;

	LoopbackListener(LoopbackProvider provider, ConnectionRequestHandler handler) {
		this.provider = provider;
		this.handler = handler;
	}

	void bind(InetSocketAddress requested) {
		this.address = LoopbackFabric.bind(requested, this);
	}

	@Override
	public InetSocketAddress localAddress() {
		return this.address;
	}

	LoopbackProvider provider() {
		return this.provider;
	}

	void deliver(LoopbackConnectionRequest request) {
		this.provider.engine().execute(() -> {
			try {
				this.handler.onConnectionRequest(request);
			}
			catch (Throwable ex) {
				logger.log(Level.ERROR, "Connection request handler threw; rejecting the request", ex);
				request.rejectQuietly(PrivateData.EMPTY);
			}
		});
	}

	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		LoopbackFabric.unbind(this.address, this);
		this.provider.listenerClosed(this);
	}

}

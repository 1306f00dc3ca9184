package io.rpcrdma.verbs.loopback;

import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;

import io.rpcrdma.verbs.ConnectionRequestHandler;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.support.UnansweredRequests;

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

	private final UnansweredRequests<LoopbackConnectionRequest> unanswered = new UnansweredRequests<>(
			(request) -> request.rejectQuietly(PrivateData.EMPTY));

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
		if (!this.unanswered.admit(request)) {
			return;
		}
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

	void answered(LoopbackConnectionRequest request) {
		this.unanswered.answered(request);
	}

	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		LoopbackFabric.unbind(this.address, this);
		this.unanswered.close();
		this.provider.listenerClosed(this);
	}

}

package io.rpcrdma.verbs.disni;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;

import com.ibm.disni.verbs.RdmaCmId;

import io.rpcrdma.verbs.ConnectionRequestHandler;
import io.rpcrdma.verbs.RdmaException;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.support.UnansweredRequests;

/**
 * A listening rdma_cm id. Requests go to the handler on the provider's event thread;
 * closing the listener rejects the requests still unanswered.
 */
final class DisniListener implements RdmaListener, DisniConnectionManager.ListeningTarget {

	private static final System.Logger logger = System.getLogger(DisniListener.class.getName());

	private static final int BACKLOG = 128;

	private final DisniProvider provider;

	private final ConnectionRequestHandler handler;

	private final UnansweredRequests<DisniConnectionRequest> pending = new UnansweredRequests<>(
			DisniConnectionRequest::rejectQuietly);

	private RdmaCmId cmId;

	private volatile InetSocketAddress localAddress;

	private volatile boolean closed;

	DisniListener(DisniProvider provider, ConnectionRequestHandler handler) {
		this.provider = provider;
		this.handler = handler;
	}

	DisniProvider provider() {
		return this.provider;
	}

	void bind(InetSocketAddress address) {
		DisniConnectionManager cm = this.provider.connectionManager();
		try {
			this.cmId = cm.createId();
		}
		catch (IOException ex) {
			throw new RdmaException("Cannot create an rdma_cm id to listen on " + address + ": "
					+ DisniProtectionDomain.describe(ex), ex);
		}
		cm.register(this.cmId, this);
		try {
			this.provider.addresses().bind(this.cmId, address);
			this.cmId.listen(BACKLOG);
			this.localAddress = this.provider.addresses()
				.address(this.cmId, true)
				.filter((bound) -> bound.getPort() != 0)
				.orElse(address);
		}
		catch (IOException | RuntimeException ex) {
			cm.destroy(this.cmId);
			throw new RdmaException("Cannot listen on " + address + ": "
					+ DisniProtectionDomain.describe(ex instanceof IOException io ? io : new IOException(ex))
					+ "; the address must belong to an interface with an RDMA device and the port must be free", ex);
		}
	}

	@Override
	public InetSocketAddress localAddress() {
		return this.localAddress;
	}

	@Override
	public void onConnectRequest(RdmaCmId requestId) {
		if (this.closed) {
			this.provider.connectionManager().destroy(requestId);
			return;
		}
		InetSocketAddress remote = this.provider.addresses().address(requestId, false).orElse(null);
		DisniConnectionRequest request = new DisniConnectionRequest(this, requestId, remote);
		this.provider.connectionManager().register(requestId, request);
		if (!this.pending.admit(request)) {
			return;
		}
		this.provider.events().execute(() -> {
			try {
				this.handler.onConnectionRequest(request);
			}
			catch (Throwable ex) {
				logger.log(Level.ERROR, "Connection request handler threw; rejecting the request", ex);
				request.rejectQuietly();
			}
		});
	}

	@Override
	public void onCmEvent(int event) {
		if (event == CmEvents.DEVICE_REMOVAL) {
			// The connection manager then has the provider close, which closes this listener.
			logger.log(Level.ERROR, DeviceRemoval.listenerLogLine(this.localAddress));
		}
	}

	void answered(DisniConnectionRequest request) {
		this.pending.answered(request);
	}

	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		this.provider.connectionManager().destroy(this.cmId);
		this.pending.close();
		this.provider.listenerClosed(this);
	}

	@Override
	public String toString() {
		return "DisniListener[" + this.localAddress + "]";
	}

}

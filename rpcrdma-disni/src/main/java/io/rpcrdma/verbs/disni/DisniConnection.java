package io.rpcrdma.verbs.disni;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.lang.ref.Reference;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import com.ibm.disni.util.MemoryUtils;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;

import io.rpcrdma.verbs.ConnectionEvent;
import io.rpcrdma.verbs.ConnectionEventListener;
import io.rpcrdma.verbs.ConnectionEventType;
import io.rpcrdma.verbs.ConnectionFailedException;
import io.rpcrdma.verbs.ConnectionRefusedException;
import io.rpcrdma.verbs.ConnectionRejectedException;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.RdmaConnection;

/**
 * One end of a connection: an rdma_cm id with the queue pair created on it.
 * <p>
 * The active side drives rdma_cm itself (resolve address, resolve route, create the queue
 * pair, connect) from the connection manager's events, and enforces the connect timeout
 * with its own timer: DiSNI's {@code RdmaEndpoint.connect()} waits without a deadline and
 * hangs when an error event arrives instead of the expected one (DiSNI issue 41). Listener
 * callbacks and the completion of the connect future run on the provider's event thread,
 * in order.
 */
final class DisniConnection implements RdmaConnection, DisniConnectionManager.Target {

	private static final System.Logger logger = System.getLogger(DisniConnection.class.getName());

	private enum State {

		/** Active side: resolving address and route. */
		RESOLVING,

		/** Active side: rdma_connect sent. */
		CONNECTING,

		/** Passive side: rdma_accept sent, RDMA_CM_EVENT_ESTABLISHED not yet seen. */
		ACCEPTED,

		ESTABLISHED,

		CLOSED

	}

	private final DisniProvider provider;

	private final DisniQueuePair qp;

	private final RdmaCmId cmId;

	private final boolean active;

	private final InetSocketAddress remoteAddress;

	private final ConnectionEventListener listener;

	private volatile PrivateData remotePrivateData;

	private final CompletableFuture<RdmaConnection> established = new CompletableFuture<>();

	private volatile InetSocketAddress localAddress;

	private State state;

	private PrivateData requestData = PrivateData.EMPTY;

	private Duration timeout = Duration.ZERO;

	private ScheduledFuture<?> timer;

	private volatile boolean released;

	private DisniConnection(DisniProvider provider, DisniQueuePair qp, RdmaCmId cmId, boolean active,
			InetSocketAddress localAddress, InetSocketAddress remoteAddress, ConnectionEventListener listener,
			PrivateData remotePrivateData, State state) {
		this.provider = provider;
		this.qp = qp;
		this.cmId = cmId;
		this.active = active;
		this.localAddress = localAddress;
		this.remoteAddress = remoteAddress;
		this.listener = (listener != null) ? listener : ConnectionEventListener.NONE;
		this.remotePrivateData = remotePrivateData;
		this.state = state;
	}

	/**
	 * The requester's end, about to resolve.
	 */
	static DisniConnection active(DisniProvider provider, DisniQueuePair qp, RdmaCmId cmId,
			InetSocketAddress remoteAddress, ConnectionEventListener listener) {
		// The accept's private data arrives with the established event (DisniCmExtensions).
		return new DisniConnection(provider, qp, cmId, true, null, remoteAddress, listener, PrivateData.EMPTY,
				State.RESOLVING);
	}

	/**
	 * The listener's end, about to accept.
	 */
	static DisniConnection passive(DisniProvider provider, DisniQueuePair qp, RdmaCmId cmId,
			InetSocketAddress localAddress, InetSocketAddress remoteAddress, ConnectionEventListener listener,
			PrivateData requestData) {
		return new DisniConnection(provider, qp, cmId, false, localAddress, remoteAddress, listener, requestData,
				State.ACCEPTED);
	}

	CompletableFuture<RdmaConnection> establishedFuture() {
		return this.established;
	}

	// ---- active side ------------------------------------------------------------------

	/**
	 * Starts resolving; the connection manager's events do the rest.
	 */
	void startConnect(PrivateData privateData, Duration connectTimeout) {
		synchronized (this) {
			this.requestData = privateData;
			this.timeout = connectTimeout;
			this.timer = this.provider.events()
				.schedule(() -> connectFailed(CmEvents.connectTimeout(this.remoteAddress, connectTimeout)),
						connectTimeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		try {
			InetSocketAddress bind = this.provider.bindAddress();
			if (bind != null && SocketAddressLayout.isIpv4(bind) == SocketAddressLayout.isIpv4(this.remoteAddress)) {
				// Bound to this provider's interface, the id resolves onto this device. An IPv6 peer
				// is reached by the route instead, and the device is checked once it resolved.
				this.provider.addresses().bind(this.cmId, bind);
			}
			this.provider.addresses().resolve(this.cmId, this.remoteAddress, timeoutMillis());
		}
		catch (IOException | RuntimeException ex) {
			connectFailed(CmEvents.connectFailure(CmEvents.ADDR_ERROR, this.remoteAddress));
		}
	}

	private int timeoutMillis() {
		return (int) Math.max(1, Math.min(Integer.MAX_VALUE, this.timeout.toMillis()));
	}

	@Override
	public void onCmEvent(int event) {
		switch (event) {
			case CmEvents.ADDR_RESOLVED -> resolveRoute();
			case CmEvents.ROUTE_RESOLVED -> createQueuePairAndConnect();
			case CmEvents.ESTABLISHED -> onEstablished();
			case CmEvents.DISCONNECTED -> onDisconnected();
			case CmEvents.DEVICE_REMOVAL -> {
				// The connection manager then tells the provider, which fails every connection
				// of the device, this one included (deviceRemoved), and closes.
			}
			default -> {
				if (CmEvents.failsConnectAttempt(event)) {
					if (isSettingUp()) {
						PrivateData data = (event == CmEvents.REJECTED)
								? this.provider.cmExtensions().takePrivateData(this.cmId) : PrivateData.EMPTY;
						connectFailed(CmEvents.connectFailure(event, this.remoteAddress, data));
					}
					else {
						fail(CmEvents.name(event));
					}
				}
			}
		}
	}

	private synchronized boolean isSettingUp() {
		return this.state == State.RESOLVING || this.state == State.CONNECTING;
	}

	private void resolveRoute() {
		synchronized (this) {
			if (this.state != State.RESOLVING) {
				return;
			}
		}
		try {
			this.cmId.resolveRoute(timeoutMillis());
		}
		catch (IOException | RuntimeException ex) {
			connectFailed(CmEvents.connectFailure(CmEvents.ROUTE_ERROR, this.remoteAddress));
		}
	}

	private void createQueuePairAndConnect() {
		PrivateData data = PrivateData.EMPTY;
		try {
			// Under the monitor, so that a timeout or an abandon either comes first (and nothing
			// is created) or finds the adapter's queue pair to destroy. The calls return at once.
			synchronized (this) {
				if (this.state != State.RESOLVING) {
					return;
				}
				data = this.requestData;
				if (!this.provider.isOwnDevice(this.cmId)) {
					throw new DeviceMismatch();
				}
				this.qp.attachAdapter(this.cmId);
				RdmaConnParam parameters = new RdmaConnParam();
				CmRetries retries = CmRetries.requester(this.provider.settings());
				parameters.setRetry_count((byte) retries.retryCount());
				parameters.setRnr_retry_count((byte) retries.rnrRetryCount());
				ByteBuffer privateData = null;
				if (!data.isEmpty()) {
					// rdma_connect copies the bytes; they must stay reachable until it returns.
					privateData = ByteBuffer.allocateDirect(data.length());
					privateData.put(data.bytes());
					parameters.setPrivate_data(MemoryUtils.getAddress(privateData));
					parameters.setPrivate_data_len((byte) data.length());
				}
				this.state = State.CONNECTING;
				this.cmId.connect(parameters);
				Reference.reachabilityFence(privateData);
			}
		}
		catch (DeviceMismatch ex) {
			connectFailed(new ConnectionFailedException(ConnectionEventType.CONNECT_ERROR, "The route to "
					+ this.remoteAddress + " leaves through another RDMA device than the one this provider opened ("
					+ this.provider.bindAddress() + "); set " + DisniSettings.LOCAL_ADDRESS
					+ " to an address of the interface that reaches the peer"));
		}
		catch (IOException | RuntimeException ex) {
			synchronized (this) {
				if (this.state == State.CONNECTING) {
					this.state = State.RESOLVING;
				}
			}
			String why = DisniProtectionDomain.describe(ex instanceof IOException io ? io : new IOException(ex));
			connectFailed(new ConnectionFailedException(ConnectionEventType.CONNECT_ERROR, "Connecting to "
					+ this.remoteAddress + " failed: " + why + ((data.length() > 56)
							? "; InfiniBand and RoCE carry at most 56 bytes of private data with a connection request, "
									+ "this one has " + data.length()
							: "")));
		}
	}

	/** The route resolved onto another device than the provider's. */
	private static final class DeviceMismatch extends Exception {

		private static final long serialVersionUID = 1L;

		DeviceMismatch() {
			super(null, null, false, false);
		}

	}

	private void onEstablished() {
		synchronized (this) {
			if (this.state == State.CONNECTING) {
				this.state = State.ESTABLISHED;
				cancelTimer();
			}
			else if (this.state == State.ACCEPTED) {
				this.state = State.ESTABLISHED;
			}
			else {
				return;
			}
		}
		this.localAddress = address(true);
		// The requester learns the accept's private data here; the listener already holds the
		// request's, from the CONNECT_REQUEST event, and its ESTABLISHED event carries none.
		PrivateData data = this.active ? this.provider.cmExtensions().takePrivateData(this.cmId) : PrivateData.EMPTY;
		if (this.active) {
			this.remotePrivateData = data;
		}
		this.qp.enterReadyToSend();
		String detail = this.active ? "connection to " + this.remoteAddress + " established"
				: "connection from " + this.remoteAddress + " established";
		this.provider.events().execute(() -> {
			emitNow(new ConnectionEvent(ConnectionEventType.ESTABLISHED, data, detail));
			if (this.active) {
				this.established.complete(this);
			}
		});
	}

	/**
	 * The attempt ended without a connection: the queue pair goes to error with every
	 * work request flushed, the cm id is destroyed, and the requester learns why.
	 */
	void connectFailed(ConnectionFailedException failure) {
		synchronized (this) {
			if (this.state != State.RESOLVING && this.state != State.CONNECTING && this.state != State.ACCEPTED) {
				return;
			}
			this.state = State.CLOSED;
			cancelTimer();
		}
		this.qp.connectFailed(failure.getMessage());
		this.provider.connectionClosed(this);
		PrivateData data = (failure instanceof ConnectionRejectedException rejected)
				? rejected.privateData() : PrivateData.EMPTY;
		this.provider.events().execute(() -> {
			try {
				emitNow(new ConnectionEvent(failure.eventType(), data, failure.getMessage()));
			}
			finally {
				this.established.completeExceptionally(failure);
			}
		});
		// On an iWARP adapter destroying the queue pair and the id blocks while the connection
		// attempt is still in flight (the iw_cm holds both until the MPA exchange ends, seconds
		// when nobody answers), so the failure is reported first and they are destroyed on the
		// provider's release threads.
		this.provider.release(() -> {
			this.qp.releaseFailedAdapter();
			release();
		});
	}

	private void cancelTimer() {
		if (this.timer != null) {
			this.timer.cancel(false);
			this.timer = null;
		}
	}

	// ---- both sides -------------------------------------------------------------------

	/**
	 * Passive side: rdma_accept went out; the queue pair may send.
	 */
	void accepted() {
		this.qp.enterReadyToSend();
	}

	private void onDisconnected() {
		if (!closeIfUp()) {
			if (isSettingUp()) {
				connectFailed(CmEvents.connectFailure(CmEvents.DISCONNECTED, this.remoteAddress));
			}
			return;
		}
		// Our side must disconnect too: that moves the local queue pair to error and flushes it.
		disconnectQuietly();
		this.qp.enterError("disconnected by the peer");
		this.provider.connectionClosed(this);
		emit(ConnectionEvent.of(ConnectionEventType.DISCONNECTED, "disconnected by the peer at " + this.remoteAddress));
	}

	/**
	 * Moves an accepted or established connection to closed.
	 * @return {@code true} if this call closed it
	 */
	private synchronized boolean closeIfUp() {
		if (this.state == State.ESTABLISHED || (this.state == State.ACCEPTED && !this.active)) {
			this.state = State.CLOSED;
			return true;
		}
		return false;
	}

	/**
	 * A fatal error broke the connection (a failed completion, the device went away): the
	 * peer is disconnected and this side gets ERROR then DISCONNECTED.
	 */
	void fail(String detail) {
		if (!closeIfUp()) {
			if (isSettingUp()) {
				connectFailed(new ConnectionFailedException(ConnectionEventType.CONNECT_ERROR, detail));
			}
			return;
		}
		disconnectQuietly();
		this.qp.enterError(detail);
		this.provider.connectionClosed(this);
		emit(ConnectionEvent.of(ConnectionEventType.ERROR, detail));
		emit(ConnectionEvent.of(ConnectionEventType.DISCONNECTED, "connection failed: " + detail));
	}

	/**
	 * The provider's device is being removed: a connection being set up fails its attempt,
	 * an established one fails (ERROR then DISCONNECTED, naming the removal), and the provider
	 * then closes its queue pair and cm id so that the kernel can complete the removal.
	 * @param detail what happened, naming the device
	 */
	void deviceRemoved(String detail) {
		if (isSettingUp()) {
			connectFailed(new ConnectionRefusedException("Connecting to " + this.remoteAddress + " failed: " + detail));
			return;
		}
		fail(detail);
	}

	@Override
	public void disconnect() {
		if (!closeIfUp()) {
			if (isSettingUp()) {
				connectFailed(new ConnectionFailedException(ConnectionEventType.CONNECT_ERROR,
						"The connection attempt to " + this.remoteAddress + " was abandoned locally"));
			}
			return;
		}
		disconnectQuietly();
		this.qp.enterError("disconnected locally");
		this.provider.connectionClosed(this);
		emit(ConnectionEvent.of(ConnectionEventType.DISCONNECTED, "disconnected locally"));
	}

	private void disconnectQuietly() {
		// rdma_disconnect moves the id's queue pair to error: it must not meet the queue pair's
		// or the id's destruction on another thread (a use after free in libibverbs, seen as a
		// crash on Linux's siw). Both are done holding the id's monitor too.
		synchronized (this.cmId) {
			if (this.released) {
				return;
			}
			try {
				this.cmId.disconnect();
			}
			catch (IOException | RuntimeException ex) {
				logger.log(Level.DEBUG, "rdma_disconnect failed", ex);
			}
		}
	}

	/**
	 * Destroys the cm id, once the queue pair on it is gone. Idempotent.
	 */
	void release() {
		synchronized (this) {
			if (this.released) {
				return;
			}
			this.released = true;
		}
		synchronized (this.cmId) {
			this.provider.connectionManager().destroy(this.cmId);
		}
	}

	private void emit(ConnectionEvent event) {
		this.provider.events().execute(() -> emitNow(event));
	}

	private void emitNow(ConnectionEvent event) {
		try {
			this.listener.onEvent(this, event);
		}
		catch (Throwable ex) {
			logger.log(Level.ERROR, "Connection event listener threw on " + event.type()
					+ "; listeners must handle their errors", ex);
		}
	}

	private InetSocketAddress address(boolean local) {
		return this.provider.addresses().address(this.cmId, local).orElse(null);
	}

	@Override
	public QueuePair queuePair() {
		return this.qp;
	}

	@Override
	public InetSocketAddress localAddress() {
		InetSocketAddress address = this.localAddress;
		return (address != null) ? address : this.provider.bindAddress();
	}

	@Override
	public InetSocketAddress remoteAddress() {
		return this.remoteAddress;
	}

	/**
	 * Always empty: DiSNI 2.1 reads no private data from connection manager events (see
	 * {@link io.rpcrdma.verbs.ProviderCapabilities}).
	 */
	@Override
	public PrivateData remotePrivateData() {
		return this.remotePrivateData;
	}

	@Override
	public synchronized boolean isConnected() {
		return this.state == State.ESTABLISHED || this.state == State.ACCEPTED;
	}

	@Override
	public synchronized String toString() {
		return "DisniConnection[" + (this.active ? "to " : "from ") + this.remoteAddress + ", " + this.state + "]";
	}

}

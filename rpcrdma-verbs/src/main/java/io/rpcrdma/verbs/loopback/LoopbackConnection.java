package io.rpcrdma.verbs.loopback;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import io.rpcrdma.verbs.ConnectionEvent;
import io.rpcrdma.verbs.ConnectionEventListener;
import io.rpcrdma.verbs.ConnectionEventType;
import io.rpcrdma.verbs.ConnectionFailedException;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairStateException;
import io.rpcrdma.verbs.RdmaConnection;

/**
 * One end of a loopback connection. Events are delivered on the owning provider's engine,
 * in order.
 */
final class LoopbackConnection implements RdmaConnection {

	private enum State {

		CONNECTING, ESTABLISHED, CLOSED

	}

	private final LoopbackProvider provider;

	private final LoopbackQueuePair qp;

	private final InetSocketAddress localAddress;

	private final InetSocketAddress remoteAddress;

	private final ConnectionEventListener listener;

	private final AtomicReference<State> state = new AtomicReference<>(State.CONNECTING);

	private final CompletableFuture<RdmaConnection> established = new CompletableFuture<>();

	private volatile PrivateData remotePrivateData;

	private volatile LoopbackConnection peer;

	LoopbackConnection(LoopbackProvider provider, LoopbackQueuePair qp, InetSocketAddress localAddress,
			InetSocketAddress remoteAddress, ConnectionEventListener listener, PrivateData remotePrivateData) {
		this.provider = provider;
		this.qp = qp;
		this.localAddress = localAddress;
		this.remoteAddress = remoteAddress;
		this.listener = (listener != null) ? listener : ConnectionEventListener.NONE;
		this.remotePrivateData = remotePrivateData;
	}

	/**
	 * Connects both ends: the passive queue pair becomes ready first, so the active side
	 * may send the moment it learns of the connection.
	 */
	static void establish(LoopbackConnection active, LoopbackConnection passive, PrivateData acceptData) {
		active.peer = passive;
		passive.peer = active;
		active.remotePrivateData = acceptData;
		try {
			passive.qp.enterReadyToSend(active.qp);
		}
		catch (QueuePairStateException ex) {
			passive.state.set(State.CLOSED);
			passive.provider.connectionClosed(passive);
			active.connectFailed(new ConnectionFailedException(ConnectionEventType.CONNECT_ERROR,
					"The peer's queue pair became unusable while accepting: " + ex.getMessage()), null);
			throw ex;
		}
		if (!active.state.compareAndSet(State.CONNECTING, State.ESTABLISHED)) {
			passive.state.set(State.CLOSED);
			passive.qp.enterError("the requester abandoned the connection attempt");
			passive.provider.connectionClosed(passive);
			throw new ConnectionFailedException(ConnectionEventType.CONNECT_ERROR,
					"The requester at " + active.localAddress + " abandoned the connection attempt");
		}
		passive.state.set(State.ESTABLISHED);
		try {
			active.qp.enterReadyToSend(passive.qp);
		}
		catch (QueuePairStateException ex) {
			// Closed by its owner in this instant; its close disconnects the connection.
		}
		// Sends the passive side posted before the active side was ready may proceed now.
		passive.qp.kick();
		passive.emit(new ConnectionEvent(ConnectionEventType.ESTABLISHED, passive.remotePrivateData,
				"connection from " + passive.remoteAddress + " established"));
		active.provider.engine().execute(() -> {
			active.listener.onEvent(active, new ConnectionEvent(ConnectionEventType.ESTABLISHED, acceptData,
					"connection to " + active.remoteAddress + " established"));
			active.established.complete(active);
		});
	}

	CompletableFuture<RdmaConnection> establishedFuture() {
		return this.established;
	}

	/**
	 * The connection attempt ended without a connection.
	 */
	void connectFailed(ConnectionFailedException failure, PrivateData data) {
		if (!this.state.compareAndSet(State.CONNECTING, State.CLOSED)) {
			return;
		}
		this.qp.enterError(failure.getMessage());
		this.provider.connectionClosed(this);
		this.provider.engine().execute(() -> {
			try {
				this.listener.onEvent(this, new ConnectionEvent(failure.eventType(), data, failure.getMessage()));
			}
			finally {
				this.established.completeExceptionally(failure);
			}
		});
	}

	/**
	 * A fatal error broke the connection: both ends get ERROR then DISCONNECTED.
	 */
	void fail(String detail) {
		if (this.state.get() == State.CONNECTING) {
			connectFailed(new ConnectionFailedException(ConnectionEventType.CONNECT_ERROR, detail), PrivateData.EMPTY);
			return;
		}
		if (!this.state.compareAndSet(State.ESTABLISHED, State.CLOSED)) {
			return;
		}
		this.qp.enterError(detail);
		emit(ConnectionEvent.of(ConnectionEventType.ERROR, detail));
		emit(ConnectionEvent.of(ConnectionEventType.DISCONNECTED, "connection failed: " + detail));
		this.provider.connectionClosed(this);
		LoopbackConnection remote = this.peer;
		if (remote != null) {
			remote.fail(detail);
		}
	}

	@Override
	public void disconnect() {
		if (this.state.get() == State.CONNECTING) {
			connectFailed(new ConnectionFailedException(ConnectionEventType.CONNECT_ERROR,
					"The connection attempt to " + this.remoteAddress + " was abandoned locally"), PrivateData.EMPTY);
			return;
		}
		down("disconnected locally");
		LoopbackConnection remote = this.peer;
		if (remote != null) {
			remote.down("disconnected by the peer");
		}
	}

	private void down(String detail) {
		if (!this.state.compareAndSet(State.ESTABLISHED, State.CLOSED)) {
			return;
		}
		this.qp.enterError(detail);
		emit(ConnectionEvent.of(ConnectionEventType.DISCONNECTED, detail));
		this.provider.connectionClosed(this);
	}

	private void emit(ConnectionEvent event) {
		this.provider.engine().execute(() -> this.listener.onEvent(this, event));
	}

	@Override
	public QueuePair queuePair() {
		return this.qp;
	}

	@Override
	public InetSocketAddress localAddress() {
		return this.localAddress;
	}

	@Override
	public InetSocketAddress remoteAddress() {
		return this.remoteAddress;
	}

	@Override
	public PrivateData remotePrivateData() {
		return this.remotePrivateData;
	}

	@Override
	public boolean isConnected() {
		return this.state.get() == State.ESTABLISHED;
	}

	@Override
	public String toString() {
		return "LoopbackConnection[" + this.localAddress + " -> " + this.remoteAddress + ", " + this.state.get() + "]";
	}

}

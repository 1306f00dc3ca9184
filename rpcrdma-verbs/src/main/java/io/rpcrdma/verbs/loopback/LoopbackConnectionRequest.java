package io.rpcrdma.verbs.loopback;

import java.net.InetSocketAddress;

import io.rpcrdma.verbs.ConnectTimeoutException;
import io.rpcrdma.verbs.ConnectionEventListener;
import io.rpcrdma.verbs.ConnectionEventType;
import io.rpcrdma.verbs.ConnectionFailedException;
import io.rpcrdma.verbs.ConnectionRejectedException;
import io.rpcrdma.verbs.ConnectionRequest;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairStateException;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.support.ConnectChecks;

/**
 * A connection request in flight from an active {@link LoopbackConnection} to a
 * {@link LoopbackListener}: answered once, by accept, reject, or the requester's timeout.
 */
final class LoopbackConnectionRequest implements ConnectionRequest {

	private enum Outcome {

		PENDING, ACCEPTED, REJECTED, EXPIRED

	}

	private final LoopbackConnection requester;

	private final LoopbackListener listener;

	private final PrivateData privateData;

	private Outcome outcome = Outcome.PENDING;

	LoopbackConnectionRequest(LoopbackConnection requester, LoopbackListener listener, PrivateData privateData) {
		this.requester = requester;
		this.listener = listener;
		this.privateData = privateData;
	}

	@Override
	public InetSocketAddress remoteAddress() {
		return this.requester.localAddress();
	}

	@Override
	public InetSocketAddress localAddress() {
		return this.listener.localAddress();
	}

	@Override
	public PrivateData privateData() {
		return this.privateData;
	}

	@Override
	public RdmaConnection accept(QueuePair queuePair, PrivateData reply, ConnectionEventListener events) {
		LoopbackQueuePair qp = ConnectChecks.acceptableQueuePair(this.listener.provider(), queuePair, LoopbackQueuePair.class, LoopbackQueuePair::provider);
		PrivateData data = (reply != null) ? reply : PrivateData.EMPTY;
		LoopbackConnection passive = new LoopbackConnection(qp.provider(), qp, this.listener.localAddress(),
				this.requester.localAddress(), events, this.privateData);
		synchronized (this) {
			if (this.outcome != Outcome.PENDING) {
				throw ConnectChecks.alreadyAnswered(remoteAddress(), this.outcome.name());
			}
			if (!qp.attach(passive)) {
				throw new QueuePairStateException(
						"Queue pair " + qp.queuePairNumber() + " already belongs to a connection; create a new one");
			}
			this.outcome = Outcome.ACCEPTED;
		}
		this.listener.answered(this);
		qp.provider().connectionOpened(passive);
		LoopbackConnection.establish(this.requester, passive, data);
		return passive;
	}

	@Override
	public void reject(PrivateData reply) {
		synchronized (this) {
			if (this.outcome != Outcome.PENDING) {
				throw new ConnectionFailedException(ConnectionEventType.REJECTED, "The connection request from "
						+ remoteAddress() + " was already " + this.outcome.name().toLowerCase(java.util.Locale.ROOT));
			}
			this.outcome = Outcome.REJECTED;
		}
		this.listener.answered(this);
		PrivateData data = (reply != null) ? reply : PrivateData.EMPTY;
		this.requester.connectFailed(new ConnectionRejectedException(
				"The peer at " + localAddress() + " rejected the connection request", data), data);
	}

	void rejectQuietly(PrivateData reply) {
		try {
			reject(reply);
		}
		catch (ConnectionFailedException ex) {
			// already answered
		}
	}

	void expire(long timeoutMillis) {
		synchronized (this) {
			if (this.outcome != Outcome.PENDING) {
				return;
			}
			this.outcome = Outcome.EXPIRED;
		}
		this.listener.answered(this);
		this.requester.connectFailed(new ConnectTimeoutException("The peer at " + localAddress()
				+ " did not accept or reject the connection request within " + timeoutMillis
				+ " ms; check that it is up and answers connection requests"), PrivateData.EMPTY);
	}

}

package io.rpcrdma.verbs.siw;

import java.net.InetSocketAddress;
import java.util.Locale;

import io.rpcrdma.verbs.ConnectionEventListener;
import io.rpcrdma.verbs.ConnectionEventType;
import io.rpcrdma.verbs.ConnectionFailedException;
import io.rpcrdma.verbs.ConnectionRequest;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairStateException;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.siw.wire.MpaFrame;
import io.rpcrdma.verbs.siw.wire.MpaNegotiator;
import io.rpcrdma.verbs.support.ConnectChecks;

/**
 * An MPA Request received on a listening socket (RFC 5044 §7.1), answered once: accept
 * sends the MPA Reply, reject sends a Reply with R set, and the requester closing its end
 * expires the request.
 */
final class SiwConnectionRequest implements ConnectionRequest {

	private enum Outcome {

		PENDING, ACCEPTED, REJECTED, EXPIRED

	}

	private final SiwConnection connection;

	private final SiwListener listener;

	private final MpaFrame requestFrame;

	private final MpaNegotiator negotiator;

	private final PrivateData privateData;

	private volatile Outcome outcome = Outcome.PENDING;

	SiwConnectionRequest(SiwConnection connection, SiwListener listener, MpaFrame requestFrame,
			MpaNegotiator negotiator, PrivateData privateData) {
		this.connection = connection;
		this.listener = listener;
		this.requestFrame = requestFrame;
		this.negotiator = negotiator;
		this.privateData = privateData;
		connection.setRemotePrivateData(privateData);
	}

	@Override
	public InetSocketAddress remoteAddress() {
		return this.connection.remoteAddress();
	}

	@Override
	public InetSocketAddress localAddress() {
		return this.connection.localAddress();
	}

	@Override
	public PrivateData privateData() {
		return this.privateData;
	}

	@Override
	public RdmaConnection accept(QueuePair queuePair, PrivateData reply, ConnectionEventListener events) {
		SiwQueuePair qp = ConnectChecks.acceptableQueuePair(this.listener.provider(), queuePair, SiwQueuePair.class, SiwQueuePair::provider);
		synchronized (this) {
			if (this.outcome == Outcome.PENDING && this.connection.requesterGone()) {
				this.outcome = Outcome.EXPIRED;
			}
			if (this.outcome != Outcome.PENDING) {
				throw ConnectChecks.alreadyAnswered(remoteAddress(), this.outcome.name());
			}
			if (!qp.attach(this.connection)) {
				throw new QueuePairStateException(
						"Queue pair " + qp.queuePairNumber() + " already belongs to a connection; create a new one");
			}
			this.connection.acceptWith(qp, this.requestFrame, this.negotiator,
					(reply != null) ? reply : PrivateData.EMPTY, events);
			this.outcome = Outcome.ACCEPTED;
		}
		this.listener.answered(this);
		// The connection starts reading FPDUs on its I/O thread now.
		this.connection.requestAnswered();
		return this.connection;
	}

	@Override
	public void reject(PrivateData reply) {
		synchronized (this) {
			if (this.outcome != Outcome.PENDING) {
				throw new ConnectionFailedException(ConnectionEventType.REJECTED, "The connection request from "
						+ remoteAddress() + " was already " + this.outcome.name().toLowerCase(Locale.ROOT));
			}
			this.outcome = Outcome.REJECTED;
			this.connection.rejectWith(this.requestFrame, this.negotiator, (reply != null) ? reply : PrivateData.EMPTY);
		}
		this.listener.answered(this);
		this.connection.requestAnswered();
	}

	void rejectQuietly() {
		try {
			reject(PrivateData.EMPTY);
		}
		catch (ConnectionFailedException ex) {
			// already answered
		}
	}

	void expire() {
		synchronized (this) {
			if (this.outcome == Outcome.PENDING) {
				this.outcome = Outcome.EXPIRED;
			}
		}
		this.listener.answered(this);
		this.connection.requestAnswered();
	}

	boolean isPending() {
		return this.outcome == Outcome.PENDING;
	}

	boolean isAccepted() {
		return this.outcome == Outcome.ACCEPTED;
	}

}

package io.rpcrdma.verbs.disni;

import java.io.IOException;
import java.net.InetSocketAddress;

import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;

import io.rpcrdma.verbs.ConnectionEventListener;
import io.rpcrdma.verbs.ConnectionEventType;
import io.rpcrdma.verbs.ConnectionFailedException;
import io.rpcrdma.verbs.ConnectionRequest;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairStateException;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.support.ConnectChecks;

/**
 * A connection request that arrived at a {@link DisniListener}: an rdma_cm id in the
 * connect-request state, answered once.
 * <p>
 * Accept never blocks (DiSNI's {@code RdmaServerEndpoint.accept()} waits on a monitor and
 * can hang when its group closes, DiSNI issue 56): it creates the queue pair on the
 * request's id, hands it the posted receives and calls {@code rdma_accept}; the
 * established event follows.
 * <p>
 * With rpcrdma's own natives in libdisni ({@link DisniCmExtensions}) the requester's
 * private data is read from the connect-request event, accept sends private data, and
 * reject is {@code rdma_reject} with private data. With a stock libdisni
 * <strong>reject is emulated</strong>, because DiSNI 2.1 has no {@code rdma_reject}
 * (DiSNI issue 52): the request's id is destroyed without accepting, and the kernel's
 * connection manager answers the requester with a reject (an InfiniBand/RoCE CM REJ, an
 * iWARP MPA reject). The requester sees {@code RDMA_CM_EVENT_REJECTED} without private
 * data; rpcrdma requesters on any provider then fail with
 * {@link io.rpcrdma.verbs.ConnectionRejectedException}. Accepting and disconnecting at
 * once was not chosen: the requester would see an established connection, may send on
 * it, and would learn of the refusal only as a disconnect.
 */
final class DisniConnectionRequest implements ConnectionRequest, DisniConnectionManager.Target {

	private enum Outcome {

		PENDING, ACCEPTED, REJECTED, EXPIRED

	}

	private final DisniListener listener;

	private final DisniProvider provider;

	private final RdmaCmId cmId;

	private final InetSocketAddress remoteAddress;

	private final PrivateData privateData;

	private Outcome outcome = Outcome.PENDING;

	DisniConnectionRequest(DisniListener listener, RdmaCmId cmId, InetSocketAddress remoteAddress) {
		this.listener = listener;
		this.provider = listener.provider();
		this.cmId = cmId;
		this.remoteAddress = remoteAddress;
		// Kept by libdisni from the CONNECT_REQUEST event, when it has rpcrdma's natives.
		this.privateData = this.provider.cmExtensions().takePrivateData(cmId);
	}

	@Override
	public InetSocketAddress remoteAddress() {
		return this.remoteAddress;
	}

	@Override
	public InetSocketAddress localAddress() {
		return this.listener.localAddress();
	}

	/**
	 * The requester's private data when libdisni has rpcrdma's natives
	 * ({@link DisniCmExtensions}); otherwise always empty, because DiSNI 2.1 does not read
	 * it, and the RPC layer negotiates in band (see
	 * {@link io.rpcrdma.verbs.ProviderCapabilities#requestPrivateDataVisible()}).
	 */
	@Override
	public PrivateData privateData() {
		return this.privateData;
	}

	@Override
	public RdmaConnection accept(QueuePair queuePair, PrivateData privateData, ConnectionEventListener events) {
		DisniQueuePair qp = ConnectChecks.acceptableQueuePair(this.provider, queuePair, DisniQueuePair.class, DisniQueuePair::provider);
		DisniConnection connection = DisniConnection.passive(this.provider, qp, this.cmId, localAddress(),
				this.remoteAddress, events, this.privateData);
		synchronized (this) {
			if (this.outcome != Outcome.PENDING) {
				throw ConnectChecks.alreadyAnswered(this.remoteAddress, this.outcome.name());
			}
			if (!qp.attach(connection)) {
				throw new QueuePairStateException(
						"Queue pair " + qp.queuePairNumber() + " already belongs to a connection; create a new one");
			}
			this.outcome = Outcome.ACCEPTED;
		}
		this.listener.answered(this);
		DisniCmExtensions extensions = this.provider.cmExtensions();
		if (privateData != null && !privateData.isEmpty() && !extensions.available()) {
			this.provider.warnOnce("accept-private-data", "Private data given to accept is not sent: DiSNI 2.1's "
					+ "rdma_accept takes none; check RdmaProvider.capabilities() and negotiate in band");
		}
		this.provider.connectionManager().register(this.cmId, connection);
		this.provider.connectionOpened(connection);
		try {
			if (!this.provider.isOwnDevice(this.cmId)) {
				throw new IOException("the request arrived on another RDMA device than the one this provider opened ("
						+ this.provider.bindAddress() + "); listen on an address of this provider's interface");
			}
			qp.attachAdapter(this.cmId);
			RdmaConnParam parameters = new RdmaConnParam();
			CmRetries retries = CmRetries.responder(this.provider.settings(), qp.attributes().rnrPolicy());
			parameters.setRetry_count((byte) retries.retryCount());
			parameters.setRnr_retry_count((byte) retries.rnrRetryCount());
			if (extensions.available()) {
				extensions.accept(this.cmId, retries.retryCount(), retries.rnrRetryCount(),
						(privateData != null) ? privateData : PrivateData.EMPTY);
			}
			else {
				this.cmId.accept(parameters);
			}
		}
		catch (IOException | RuntimeException ex) {
			ConnectionFailedException failure = new ConnectionFailedException(ConnectionEventType.CONNECT_ERROR,
					"Accepting the connection from " + this.remoteAddress + " failed: "
							+ DisniProtectionDomain.describe(ex instanceof IOException io ? io : new IOException(ex)));
			connection.connectFailed(failure);
			throw failure;
		}
		connection.accepted();
		return connection;
	}

	@Override
	public void reject(PrivateData privateData) {
		synchronized (this) {
			if (this.outcome != Outcome.PENDING) {
				throw new ConnectionFailedException(ConnectionEventType.REJECTED, "The connection request from "
						+ this.remoteAddress + " was already " + this.outcome.name().toLowerCase());
			}
			this.outcome = Outcome.REJECTED;
		}
		DisniCmExtensions extensions = this.provider.cmExtensions();
		if (privateData != null && !privateData.isEmpty() && !extensions.available()) {
			this.provider.warnOnce("reject-private-data", "Private data given to reject is not sent: DiSNI 2.1 has "
					+ "no rdma_reject, the provider rejects by destroying the request's cm id");
		}
		this.listener.answered(this);
		if (extensions.available()) {
			try {
				extensions.reject(this.cmId, (privateData != null) ? privateData : PrivateData.EMPTY);
			}
			catch (IOException | RuntimeException ex) {
				// Destroying the id below still makes the connection manager reject the request.
				this.provider.warnOnce("rdma-reject", "rdma_reject failed, rejecting by destroying the request's cm id: "
						+ ex.getMessage());
			}
		}
		this.provider.connectionManager().destroy(this.cmId);
	}

	/**
	 * Rejects if still unanswered (listener closed, handler failed).
	 */
	void rejectQuietly() {
		synchronized (this) {
			if (this.outcome != Outcome.PENDING) {
				return;
			}
			this.outcome = Outcome.REJECTED;
		}
		this.listener.answered(this);
		this.provider.connectionManager().destroy(this.cmId);
	}

	/**
	 * Events before an answer mean the requester gave up (its timeout destroyed its id and
	 * its connection manager told ours).
	 */
	@Override
	public void onCmEvent(int event) {
		synchronized (this) {
			if (this.outcome != Outcome.PENDING) {
				return;
			}
			this.outcome = Outcome.EXPIRED;
		}
		this.listener.answered(this);
		this.provider.connectionManager().destroy(this.cmId);
	}

}

package io.rpcrdma.verbs.siw;

import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

import io.rpcrdma.verbs.CompletionHandler;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.ConnectionRequestHandler;
import io.rpcrdma.verbs.ProviderCapabilities;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.QueuePairLimitException;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.soft.SoftwareDevice;
import io.rpcrdma.verbs.support.ConnectChecks;
import io.rpcrdma.verbs.support.ProviderObjects;

/**
 * The software iWARP provider: one instance is one software RNIC with its own memory region
 * table. Connections are TCP connections carrying MPA, DDP and RDMAP (RFC 5044, 5041, 5040,
 * with RFC 6581's enhanced connection setup), wire-compatible with Linux siw. Connections
 * have no thread of their own: they share the provider's I/O threads ({@code siw.io-threads})
 * for connecting, receiving and what their posting threads cannot transmit at once. Settings
 * are described by {@link SiwSettings}.
 */
public final class SiwProvider implements RdmaProvider {

	private static final System.Logger logger = System.getLogger(SiwProvider.class.getName());

	/**
	 * Everything but what iWARP's lack of acknowledgement takes away, as on Linux's siw: a
	 * Send or RDMA Write completes once the socket has taken it, so neither a refusal by the
	 * peer nor a Send finding no receive shows in its completion; the peer's Terminate fails
	 * the connection instead (RFC 5040 §7, RFC 5041 §7).
	 */
	static final ProviderCapabilities CAPABILITIES = new ProviderCapabilities(true, true, true, true, false, false,
			true);

	private final SiwSettings settings;

	private final SoftwareDevice device = new SoftwareDevice(this, SiwProviderFactory.NAME);

	private final ProviderObjects objects = this.device.objects();

	/**
	 * Accepted TCP connections not established yet: each has a thread but no queue pair, so
	 * {@link #createQueuePair}'s limit does not bound them.
	 */
	private final PendingPassiveConnections pending;

	private final SiwIoThreads ioThreads;

	private final StreamBuffers streamBuffers;

	/**
	 * Opens a provider; prefer {@code RdmaProviders.open("siw")}.
	 * @param settings the settings
	 */
	public SiwProvider(SiwSettings settings) {
		this.settings = Objects.requireNonNull(settings, "settings");
		this.pending = new PendingPassiveConnections(settings.maxQueuePairs());
		// A few free buffers per I/O thread however quiet the provider, and as many more as
		// connections come back from idle for, trimmed by the I/O threads' ticks.
		this.streamBuffers = new StreamBuffers(4 * settings.ioThreads(), System.nanoTime());
		this.ioThreads = new SiwIoThreads(settings.ioThreads(), this.streamBuffers::trim, settings.ioPoll().toNanos());
	}

	/** @return the transmit buffers the provider's connections borrow while they transmit */
	StreamBuffers streamBuffers() {
		return this.streamBuffers;
	}

	/** @return the I/O threads the provider's connections share */
	SiwIoThreads ioThreads() {
		return this.ioThreads;
	}

	/**
	 * The settings in force.
	 * @return the settings
	 */
	public SiwSettings settings() {
		return this.settings;
	}

	@Override
	public String name() {
		return SiwProviderFactory.NAME;
	}

	@Override
	public ProviderCapabilities capabilities() {
		return CAPABILITIES;
	}

	@Override
	public ProtectionDomain allocateProtectionDomain() {
		return this.device.allocateProtectionDomain();
	}

	@Override
	public CompletionQueue createCompletionQueue(int capacity, CompletionHandler handler) {
		return this.device.createCompletionQueue(capacity, handler);
	}

	/**
	 * {@inheritDoc}
	 * @throws QueuePairLimitException if {@link SiwSettings#maxQueuePairs()} are open: each
	 * connection's queue pair comes with a socket and its state, and this bounds them
	 */
	@Override
	public QueuePair createQueuePair(QueuePairAttributes attributes) {
		synchronized (this.device) {
			int open = this.objects.queuePairCount();
			if (open >= this.settings.maxQueuePairs()) {
				throw new QueuePairLimitException("The siw provider has " + open + " queue pairs open, its limit ("
						+ SiwSettings.MAX_QUEUE_PAIRS + " = " + this.settings.maxQueuePairs()
						+ "); each connection holds one: close connections or raise the setting");
			}
			return this.device.createQueuePair(attributes, (qpn) -> new SiwQueuePair(this, attributes, qpn));
		}
	}

	@Override
	public RdmaListener listen(InetSocketAddress address, ConnectionRequestHandler handler) {
		this.objects.checkOpen();
		Objects.requireNonNull(address, "address");
		Objects.requireNonNull(handler, "handler");
		SiwListener listener = new SiwListener(this, handler, address.isUnresolved() ? resolve(address) : address);
		this.objects.listenerOpened(listener);
		if (this.objects.isClosed()) {
			listener.close();
		}
		return listener;
	}

	@Override
	public CompletableFuture<RdmaConnection> connect(QueuePair queuePair, ConnectParameters parameters) {
		this.objects.checkOpen();
		Objects.requireNonNull(parameters, "parameters");
		SiwQueuePair qp = ConnectChecks.ownQueuePair(this, queuePair, SiwQueuePair.class, SiwQueuePair::provider);
		ConnectParameters resolved = parameters;
		if (parameters.remoteAddress().isUnresolved()) {
			resolved = new ConnectParameters(resolve(parameters.remoteAddress()), parameters.privateData(),
					parameters.timeout(), parameters.listener());
		}
		SiwConnection connection = SiwConnection.active(this, this.settings, qp, resolved);
		if (!qp.attach(connection)) {
			throw ConnectChecks.alreadyConnecting(qp);
		}
		this.objects.connectionOpened(connection);
		connection.connectActively(this.ioThreads.assign());
		return connection.establishedFuture();
	}

	/**
	 * Resolves a host name given as an unresolved address.
	 * @throws IllegalArgumentException if the name does not resolve
	 */
	static InetSocketAddress resolve(InetSocketAddress address) {
		InetSocketAddress resolved = new InetSocketAddress(address.getHostString(), address.getPort());
		if (resolved.isUnresolved()) {
			throw new IllegalArgumentException("Host name '" + address.getHostString() + "' does not resolve to an IP "
					+ "address; the siw provider needs a real TCP address (give an IP address or a resolvable name)");
		}
		return resolved;
	}

	/**
	 * Starts answering a TCP connection a listener accepted: an I/O thread reads the MPA
	 * Request, then a thread of the connection hands the request to the listener's handler.
	 * @return {@code false} if the provider is closed, or already has
	 * {@link SiwSettings#maxQueuePairs()} accepted connections waiting for their MPA Request
	 * or its answer (counted and logged): the caller closes the channel
	 */
	boolean startPassive(SocketChannel channel, SiwListener listener) {
		if (this.objects.isClosed()) {
			return false;
		}
		if (!this.pending.tryAdmit()) {
			this.pending.refused(channel.socket().getRemoteSocketAddress());
			return false;
		}
		SiwConnection connection = SiwConnection.passive(this, this.settings, channel, listener);
		this.objects.connectionOpened(connection);
		connection.awaitRequest(this.ioThreads.assign());
		return true;
	}

	/**
	 * A passive connection's thread is done waiting for the MPA Request and the handler's
	 * answer: the connection is established, or gone.
	 */
	void passiveSetupEnded() {
		this.pending.release();
	}

	/**
	 * The TCP connections this provider's listeners closed at once, unread, because
	 * {@link SiwSettings#maxQueuePairs()} accepted connections were already waiting for
	 * their MPA Request (RFC 5044 §7.1) or the handler's answer to it. Real clients see their
	 * connect fail; a count that grows points at peers that connect and send nothing, or at a
	 * limit too low for the clients' reconnection bursts.
	 * @return the connections closed so far
	 */
	public long refusedPendingConnections() {
		return this.pending.refusedCount();
	}

	/**
	 * @return the accepted TCP connections now waiting for their MPA Request or its answer
	 */
	int pendingPassiveConnections() {
		return this.pending.pending();
	}

	@Override
	public boolean isClosed() {
		return this.objects.isClosed();
	}

	@Override
	public void close() {
		if (this.objects.close()) {
			// The connections' streams close on the I/O threads, after their last bytes (and a
			// Terminate) or within the linger: the threads end once all have.
			this.ioThreads.shutdown(RdmapTransmitter.CLOSE_LINGER_NANOS + SiwIoThread.TICK_NANOS);
		}
	}

	void queuePairClosed(SiwQueuePair qp) {
		this.objects.queuePairClosed(qp);
	}

	void listenerClosed(SiwListener listener) {
		this.objects.listenerClosed(listener);
	}

	void connectionClosed(SiwConnection connection) {
		this.objects.connectionClosed(connection);
	}

	@Override
	public String toString() {
		return "SiwProvider[" + this.settings + "]";
	}

}

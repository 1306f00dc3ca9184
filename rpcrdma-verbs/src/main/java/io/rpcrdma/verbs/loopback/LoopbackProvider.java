package io.rpcrdma.verbs.loopback;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.rpcrdma.verbs.CompletionHandler;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.ConnectionRefusedException;
import io.rpcrdma.verbs.ConnectionRequestHandler;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.soft.SoftwareDevice;
import io.rpcrdma.verbs.support.ConnectChecks;
import io.rpcrdma.verbs.support.ProviderObjects;

/**
 * The in-JVM RDMA provider: one instance is one software device with its own memory
 * region table and one {@link LoopbackEngine} thread. Connections run over the JVM-wide
 * {@link LoopbackFabric}, so two instances behave like two hosts. It implements the full
 * semantics the provider conformance kit checks; it is not a test double.
 * <p>
 * Settings ({@link RdmaProviderConfig}): {@code loopback.spin-micros} (default 20), how long
 * the idle engine spins before parking; larger lowers latency under light load at the cost
 * of CPU.
 */
public final class LoopbackProvider implements RdmaProvider {

	/** Setting for the idle spin time of the engine, in microseconds. */
	public static final String SPIN_MICROS = "loopback.spin-micros";

	private final LoopbackEngine engine;

	private final SoftwareDevice device = new SoftwareDevice(this, LoopbackProviderFactory.NAME);

	private final ProviderObjects objects = this.device.objects();

	LoopbackProvider(RdmaProviderConfig config) {
		int spinMicros = config.getInt(SPIN_MICROS, 20);
		if (spinMicros < 0) {
			throw new IllegalArgumentException(SPIN_MICROS + " must not be negative, got " + spinMicros);
		}
		this.engine = new LoopbackEngine(TimeUnit.MICROSECONDS.toNanos(spinMicros));
		this.engine.start();
	}

	@Override
	public String name() {
		return LoopbackProviderFactory.NAME;
	}

	@Override
	public ProtectionDomain allocateProtectionDomain() {
		return this.device.allocateProtectionDomain();
	}

	@Override
	public CompletionQueue createCompletionQueue(int capacity, CompletionHandler handler) {
		return this.device.createCompletionQueue(capacity, handler);
	}

	@Override
	public QueuePair createQueuePair(QueuePairAttributes attributes) {
		return this.device.createQueuePair(attributes, (qpn) -> new LoopbackQueuePair(this, attributes, qpn));
	}

	@Override
	public RdmaListener listen(InetSocketAddress address, ConnectionRequestHandler handler) {
		this.objects.checkOpen();
		Objects.requireNonNull(address, "address");
		Objects.requireNonNull(handler, "handler");
		LoopbackListener listener = new LoopbackListener(this, handler);
		listener.bind(address);
		this.objects.listenerOpened(listener);
		return listener;
	}

	@Override
	public CompletableFuture<RdmaConnection> connect(QueuePair queuePair, ConnectParameters parameters) {
		this.objects.checkOpen();
		Objects.requireNonNull(parameters, "parameters");
		LoopbackQueuePair qp = ConnectChecks.ownQueuePair(this, queuePair, LoopbackQueuePair.class,
				LoopbackQueuePair::provider);
		LoopbackConnection connection = new LoopbackConnection(this, qp, LoopbackFabric.clientAddress(),
				parameters.remoteAddress(), parameters.listener(), null);
		if (!qp.attach(connection)) {
			throw ConnectChecks.alreadyConnecting(qp);
		}
		this.objects.connectionOpened(connection);
		Duration timeout = parameters.timeout();
		this.engine.execute(() -> {
			LoopbackListener listener = LoopbackFabric.lookup(parameters.remoteAddress());
			if (listener == null) {
				connection.connectFailed(new ConnectionRefusedException("Nothing listens at loopback address "
						+ parameters.remoteAddress() + "; start the listener first or check the address"),
						null);
				return;
			}
			LoopbackConnectionRequest request = new LoopbackConnectionRequest(connection, listener,
					parameters.privateData());
			this.engine.schedule(timeout.toNanos(), () -> request.expire(timeout.toMillis()));
			listener.deliver(request);
		});
		return connection.establishedFuture();
	}

	@Override
	public boolean isClosed() {
		return this.objects.isClosed();
	}

	@Override
	public void close() {
		if (this.objects.close()) {
			this.engine.shutdown();
		}
	}

	LoopbackEngine engine() {
		return this.engine;
	}

	void queuePairClosed(LoopbackQueuePair qp) {
		this.objects.queuePairClosed(qp);
	}

	void listenerClosed(LoopbackListener listener) {
		this.objects.listenerClosed(listener);
	}

	void connectionOpened(LoopbackConnection connection) {
		this.objects.connectionOpened(connection);
	}

	void connectionClosed(LoopbackConnection connection) {
		this.objects.connectionClosed(connection);
	}

	@Override
	public String toString() {
		return "LoopbackProvider[" + this.engine + "]";
	}

}

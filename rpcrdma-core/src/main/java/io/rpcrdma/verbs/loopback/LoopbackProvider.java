package io.rpcrdma.verbs.loopback;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.rpcrdma.verbs.CompletionHandler;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.ConnectionRefusedException;
import io.rpcrdma.verbs.ConnectionRequestHandler;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.QueuePairStateException;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.soft.MemoryRegionTable;
import io.rpcrdma.verbs.soft.SoftwareCompletionQueue;
import io.rpcrdma.verbs.soft.SoftwareProtectionDomain;
import io.rpcrdma.verbs.support.QueuePairChecks;

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

	private final MemoryRegionTable regions = new MemoryRegionTable();

	private final LoopbackEngine engine;

	private final AtomicInteger queuePairNumbers = new AtomicInteger(ThreadLocalRandom.current().nextInt(1, 1 << 20));

	private final Set<SoftwareProtectionDomain> domains = ConcurrentHashMap.newKeySet();

	private final Set<SoftwareCompletionQueue> completionQueues = ConcurrentHashMap.newKeySet();

	private final Set<LoopbackQueuePair> queuePairs = ConcurrentHashMap.newKeySet();

	private final Set<LoopbackListener> listeners = ConcurrentHashMap.newKeySet();

	private final Set<LoopbackConnection> connections = ConcurrentHashMap.newKeySet();

	private volatile boolean closed;

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
		checkOpen();
		SoftwareProtectionDomain pd = new SoftwareProtectionDomain(this, this.regions, this.domains::remove);
		this.domains.add(pd);
		return pd;
	}

	@Override
	public CompletionQueue createCompletionQueue(int capacity, CompletionHandler handler) {
		checkOpen();
		SoftwareCompletionQueue cq = new SoftwareCompletionQueue(this, capacity, handler, this::completionQueueClosed);
		this.completionQueues.add(cq);
		return cq;
	}

	@Override
	public QueuePair createQueuePair(QueuePairAttributes attributes) {
		checkOpen();
		QueuePairChecks.checkOwnership(this, attributes);
		LoopbackQueuePair qp = new LoopbackQueuePair(this, attributes, this.queuePairNumbers.getAndIncrement() & 0xffffff);
		this.queuePairs.add(qp);
		return qp;
	}


	@Override
	public RdmaListener listen(InetSocketAddress address, ConnectionRequestHandler handler) {
		checkOpen();
		Objects.requireNonNull(address, "address");
		Objects.requireNonNull(handler, "handler");
		LoopbackListener listener = new LoopbackListener(this, handler);
		listener.bind(address);
		this.listeners.add(listener);
		return listener;
	}

	@Override
	public CompletableFuture<RdmaConnection> connect(QueuePair queuePair, ConnectParameters parameters) {
		checkOpen();
		Objects.requireNonNull(parameters, "parameters");
		if (!(queuePair instanceof LoopbackQueuePair qp) || qp.provider() != this) {
			throw new IllegalArgumentException("Connect needs a queue pair created by this loopback provider, got "
					+ queuePair);
		}
		LoopbackConnection connection = new LoopbackConnection(this, qp, LoopbackFabric.clientAddress(),
				parameters.remoteAddress(), parameters.listener(), null);
		if (!qp.attach(connection)) {
			throw new QueuePairStateException("Queue pair " + qp.queuePairNumber() + " is " + qp.state()
					+ " or already connecting; connect a new queue pair in INIT");
		}
		this.connections.add(connection);
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
		return this.closed;
	}

	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		for (LoopbackListener listener : List.copyOf(this.listeners)) {
			listener.close();
		}
		for (LoopbackConnection connection : List.copyOf(this.connections)) {
			connection.disconnect();
		}
		for (LoopbackQueuePair qp : List.copyOf(this.queuePairs)) {
			qp.close();
		}
		for (SoftwareCompletionQueue cq : List.copyOf(this.completionQueues)) {
			cq.close();
		}
		for (SoftwareProtectionDomain pd : List.copyOf(this.domains)) {
			pd.close();
		}
		this.domains.clear();
		this.engine.shutdown();
	}

	LoopbackEngine engine() {
		return this.engine;
	}

	void queuePairClosed(LoopbackQueuePair qp) {
		this.queuePairs.remove(qp);
	}

	void completionQueueClosed(SoftwareCompletionQueue cq) {
		this.completionQueues.remove(cq);
	}

	void listenerClosed(LoopbackListener listener) {
		this.listeners.remove(listener);
	}

	void connectionOpened(LoopbackConnection connection) {
		this.connections.add(connection);
	}

	void connectionClosed(LoopbackConnection connection) {
		this.connections.remove(connection);
	}

	private void checkOpen() {
		if (this.closed) {
			throw new IllegalStateException(
					"The loopback provider is closed; open a new one with RdmaProviders.open(\"loopback\")");
		}
	}

	@Override
	public String toString() {
		return "LoopbackProvider[" + this.engine + "]";
	}

}

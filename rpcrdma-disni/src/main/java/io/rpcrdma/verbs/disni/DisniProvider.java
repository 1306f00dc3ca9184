package io.rpcrdma.verbs.disni;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import com.ibm.disni.util.MemoryUtils;
import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaEventChannel;
import com.ibm.disni.verbs.impl.NatIbvPd;

import io.rpcrdma.verbs.CompletionHandler;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.ConnectionRefusedException;
import io.rpcrdma.verbs.ConnectionRequestHandler;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.ProviderCapabilities;
import io.rpcrdma.verbs.ProviderUnavailableException;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaException;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.support.ConnectChecks;
import io.rpcrdma.verbs.support.ProviderObjects;
import io.rpcrdma.verbs.support.QueuePairChecks;

/**
 * The {@code disni} provider: one RDMA device (the one that owns the configured or first
 * RDMA interface address) driven through DiSNI 2.1's verbs layer.
 * <p>
 * It uses DiSNI's verbs and rdma_cm classes directly, not its endpoint groups. The SPI
 * mirrors verbs, so protection domains, completion queues, memory regions and queue pairs
 * exist before any connection; DiSNI's groups create all of these per connection, with one
 * size for every queue pair of a group, behind a blocking {@code connect()} and
 * {@code accept()} that have the known hangs (DiSNI issues 41 and 56). Its active group
 * would also add a thread hop per completion. So the provider runs its own connection
 * manager thread ({@link DisniConnectionManager}) and its own completion engine: a few
 * adapter completion queues that all queue pairs share ({@link SharedCompletionQueues}),
 * polled in {@link CompletionMode#EVENT} or {@link CompletionMode#BUSY_POLL}, which fill the
 * SPI's completion queues ({@link DisniCompletionQueue}); that is what DiSNI's passive group
 * leaves to its users.
 * <p>
 * Threads, whatever the number of connections: one connection manager thread, one event
 * thread (listener callbacks, connect timeouts), one completion thread per shared completion
 * queue ({@code disni.completion-queues} at most, started as queue pairs need them) or one
 * busy-poll thread, and up to two release threads while queue pairs of failed connection
 * attempts are destroyed. All are daemons named {@code rpcrdma-disni-N-*}.
 */
final class DisniProvider implements RdmaProvider {

	private static final System.Logger logger = System.getLogger(DisniProvider.class.getName());

	/**
	 * DiSNI 2.1 carries no private data to the listener or back, has no reject, and
	 * registers with ibv_reg_mr, whose regions a peer cannot count on invalidating; on
	 * InfiniBand and RoCE the adapter retries Sends that find no receive and reports a peer's
	 * refusal at the initiator. Its API has no memory windows, so a region is not bound to the
	 * connection it was offered to: any queue pair of the provider's protection domain reaches
	 * it while its rkey is valid (docs/security.md).
	 */
	static final ProviderCapabilities CAPABILITIES = new ProviderCapabilities(false, false, false, false, true, true,
			false);

	/** The same on an iWARP adapter, which does neither (RFC 5040, RFC 5041). */
	static final ProviderCapabilities IWARP_CAPABILITIES = new ProviderCapabilities(false, false, false, false, false,
			false, false);

	private static final AtomicInteger instances = new AtomicInteger();

	private final DisniSettings settings;

	private final int instance = instances.incrementAndGet();

	private final AtomicInteger threads = new AtomicInteger();

	private final QueuePairTable<DisniQueuePair> queuePairs = new QueuePairTable<>(DisniQueuePair::index);

	private final AtomicInteger nextQueuePairIndex = new AtomicInteger(1);

	private final ProviderObjects objects = new ProviderObjects(DisniProviderFactory.NAME);

	private final Set<String> warned = ConcurrentHashMap.newKeySet();

	private final LongAdder registrations = new LongAdder();

	private final LongAdder deregistrations = new LongAdder();

	private final ScheduledThreadPoolExecutor events;

	private final ThreadPoolExecutor releases;

	private final SharedCompletionQueues sharedQueues;

	/** The entries a new shared queue asks for: the setting, or what the device took last. */
	private volatile int sharedQueueEntries;

	/** Stops the busy poller, once the queue pairs are closed. */
	private volatile boolean stopPolling;

	private final DisniConnectionManager connectionManager;

	private final RdmaCmId anchor;

	private final IbvContext context;

	private final int contextFd;

	private final InetSocketAddress bindAddress;

	private final String deviceName;

	private final ProviderCapabilities capabilities;

	private final DisniCmExtensions cmExtensions;

	private final DisniAddresses addresses;

	/** Whether advertised regions are offered through memory windows on this device. */
	private final DisniWindows windows;

	private final LongAdder windowsAllocated = new LongAdder();

	private final Thread busyPoller;

	/** The connections opened and not yet closed, which a device removal fails first. */
	private final Set<DisniConnection> connections = ConcurrentHashMap.newKeySet();

	private final AtomicBoolean deviceRemoved = new AtomicBoolean();

	private DisniProvider(DisniSettings settings, RdmaEventChannel channel, RdmaInterfaces.Selection selection)
			throws IOException {
		this.settings = settings;
		this.bindAddress = new InetSocketAddress(selection.address(), 0);
		this.deviceName = selection.device();
		// DiSNI loaded libdisni when the event channel was created, so its natives can be probed now.
		this.cmExtensions = DisniCmExtensions.system();
		this.addresses = DisniAddresses.system();
		this.events = new ScheduledThreadPoolExecutor(1, (task) -> newThread("events", task));
		this.events.setRemoveOnCancelPolicy(true);
		// On an iWARP adapter destroying the queue pair of a failed connection attempt blocks for
		// as long as the iw_cm holds it (seconds when the peer never answers): that must hold
		// neither the event thread nor a thread per connection.
		this.releases = new ThreadPoolExecutor(2, 2, 5, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
				(task) -> newThread("release", task));
		this.releases.allowCoreThreadTimeOut(true);
		this.sharedQueueEntries = settings.completionQueueEntries();
		this.sharedQueues = new SharedCompletionQueues(settings.completionQueues(), this::createSharedQueue,
				selection.device());
		this.connectionManager = new DisniConnectionManager(this, channel, settings.cmPollMillis());
		RdmaCmId id = null;
		try {
			// An id bound to the interface address opens its device; it stays bound for the
			// provider's lifetime so that the device context does too.
			id = this.connectionManager.createId();
			id.bindAddr(this.bindAddress);
			this.context = id.getVerbs();
			if (this.context == null) {
				throw new IOException(selection.address().getHostAddress() + " is not an address of an RDMA device");
			}
			this.contextFd = this.context.getCmd_fd();
		}
		catch (IOException | RuntimeException ex) {
			if (id != null) {
				this.connectionManager.destroy(id);
			}
			this.connectionManager.close();
			this.events.shutdownNow();
			this.releases.shutdownNow();
			throw ex;
		}
		this.anchor = id;
		this.windows = DisniWindows.detect(this.deviceName, WindowNatives::version, this::allocateOneWindow);
		this.capabilities = this.windows.apply(this.cmExtensions
			.apply(RdmaInterfaces.system().isIwarp(this.deviceName) ? IWARP_CAPABILITIES : CAPABILITIES));
		this.busyPoller = (settings.completionMode() == CompletionMode.BUSY_POLL) ? newThread("busy-poll", this::busyPoll)
				: null;
		this.connectionManager.start();
		if (this.busyPoller != null) {
			this.busyPoller.start();
		}
	}

	/**
	 * Opens the device that owns the configured (or first) RDMA interface address.
	 * @param settings the settings
	 * @return the open provider
	 * @throws ProviderUnavailableException if DiSNI, the device or the address fail
	 */
	static DisniProvider open(DisniSettings settings) {
		RdmaInterfaces.Selection selection = selectAddress(settings);
		RdmaEventChannel channel;
		try {
			channel = RdmaEventChannel.createEventChannel();
		}
		catch (IOException | LinkageError | RuntimeException ex) {
			// The native message ends with a line break; keep the exception message on one line.
			throw new ProviderUnavailableException("RDMA provider 'disni' cannot open librdmacm's event channel ("
					+ String.valueOf(ex.getMessage()).strip() + "); check that an RDMA device exists ('rdma link') and "
					+ "/dev/infiniband/rdma_cm is accessible, and that libdisni is rpcrdma's (rpcrdma-disni-native) or DiSNI 2.1's (see "
					+ "docs/hardware.md)");
		}
		if (channel == null) {
			throw new ProviderUnavailableException("RDMA provider 'disni' found no usable RDMA device: "
					+ "rdma_create_event_channel failed; check 'rdma link' and that /dev/infiniband/rdma_cm is "
					+ "readable and writable by this user");
		}
		try {
			DisniProvider provider = new DisniProvider(settings, channel, selection);
			logger.log(Level.INFO, "RDMA provider 'disni' opened device {0} through {1} ({2}), completions: {3}",
					provider.deviceName, selection.networkInterface(), selection.address().getHostAddress(),
					settings.completionMode().value());
			return provider;
		}
		catch (IOException | RuntimeException ex) {
			throw new ProviderUnavailableException("RDMA provider 'disni' cannot open the RDMA device of "
					+ selection.address().getHostAddress() + " (" + selection.networkInterface() + "): "
					+ String.valueOf(ex.getMessage()).strip() + "; set " + DisniSettings.LOCAL_ADDRESS
					+ " to an IPv4 address of an RDMA interface");
		}
	}

	private static RdmaInterfaces.Selection selectAddress(DisniSettings settings) {
		RdmaInterfaces interfaces = RdmaInterfaces.system();
		if (settings.localAddress() != null) {
			InetAddress address;
			try {
				address = InetAddress.getByName(settings.localAddress());
			}
			catch (UnknownHostException ex) {
				throw new ProviderUnavailableException("Provider setting '" + DisniSettings.LOCAL_ADDRESS + "' is '"
						+ settings.localAddress() + "', which does not resolve; give an IPv4 address of an RDMA interface");
			}
			if (!(address instanceof Inet4Address)) {
				throw new ProviderUnavailableException("Provider setting '" + DisniSettings.LOCAL_ADDRESS + "' is "
						+ address.getHostAddress() + ", but the provider selects its device by an IPv4 address of its interface; "
						+ "give one (listeners and connections may still use IPv6 addresses of the device's interfaces)");
			}
			return new RdmaInterfaces.Selection(interfaces.deviceOf(address).orElse("unknown"), "configured", address);
		}
		return interfaces.firstAddress()
			.orElseThrow(() -> new ProviderUnavailableException("RDMA provider 'disni' found no network interface of "
					+ "an RDMA device with an IPv4 address (RDMA devices and their interfaces: "
					+ interfaces.interfacesByDevice() + "); bring the interface up with an IPv4 address, or set "
					+ DisniSettings.LOCAL_ADDRESS));
	}

	/**
	 * The kernel registrations this provider has made: what the memory pools and the
	 * registration cache cost on a real device.
	 * @return the counts since the provider opened
	 */
	DisniRegistrationStats registrationStats() {
		return new DisniRegistrationStats(this.registrations.sum(), this.deregistrations.sum(),
				this.windowsAllocated.sum());
	}

	void registrationMade() {
		this.registrations.increment();
	}

	void deregistrationMade() {
		this.deregistrations.increment();
	}

	void windowAllocated() {
		this.windowsAllocated.increment();
	}

	DisniWindows windows() {
		return this.windows;
	}

	/** The probe of {@link DisniWindows}: one window in a scratch protection domain. */
	private void allocateOneWindow() throws IOException {
		IbvPd scratch = this.context.allocPd();
		try {
			ByteBuffer rkey = ByteBuffer.allocateDirect(4);
			long window = WindowNatives.allocate(((NatIbvPd) scratch).getObjId(), MemoryUtils.getAddress(rkey));
			WindowNatives.deallocate(window);
		}
		finally {
			try {
				scratch.deallocPd();
			}
			catch (Exception ex) {
				logger.log(Level.DEBUG, "ibv_dealloc_pd of the memory-window probe failed", ex);
			}
		}
	}

	// ---- SPI --------------------------------------------------------------------------

	@Override
	public String name() {
		return DisniProviderFactory.NAME;
	}

	@Override
	public ProviderCapabilities capabilities() {
		return this.capabilities;
	}

	@Override
	public ProtectionDomain allocateProtectionDomain() {
		this.objects.checkOpen();
		try {
			DisniProtectionDomain pd = new DisniProtectionDomain(this, this.context.allocPd());
			this.objects.protectionDomainOpened(pd);
			return pd;
		}
		catch (IOException ex) {
			throw new RdmaException("ibv_alloc_pd failed on " + this.deviceName + ": " + DisniProtectionDomain.describe(ex),
					ex);
		}
	}

	@Override
	public CompletionQueue createCompletionQueue(int capacity, CompletionHandler handler) {
		this.objects.checkOpen();
		if (capacity <= 0 || capacity > (1 << 22)) {
			throw new IllegalArgumentException("Completion queue capacity must be 1 to 2^22, got " + capacity);
		}
		// No adapter queue of its own: its queue pairs' completions come through the shared ones.
		DisniCompletionQueue queue = new DisniCompletionQueue(this, capacity, handler);
		this.objects.completionQueueOpened(queue);
		return queue;
	}

	/**
	 * Makes shared completion queue {@code number}, on the device's completion vectors in turn
	 * (as Linux's {@code ib_alloc_cq_any} spreads its queues), with its event thread.
	 */
	private SharedCompletionQueue createSharedQueue(int number) throws IOException {
		int vectors = Math.max(1, this.context.getNumCompVectors());
		DisniAdapterCompletionQueue adapter = DisniAdapterCompletionQueue.create(this.context, this.sharedQueueEntries,
				(number - 1) % vectors, this.settings.pollBatch());
		if (adapter.capacity() < this.sharedQueueEntries) {
			this.sharedQueueEntries = adapter.capacity();
			logger.log(Level.INFO, "{0} creates completion queues of at most {1} entries, fewer than {2} asks for; "
					+ "each shared completion queue serves queue pairs with that many work requests in all",
					this.deviceName, adapter.capacity(), DisniSettings.COMPLETION_QUEUE_ENTRIES);
		}
		SharedCompletionQueue queue = new SharedCompletionQueue(number, adapter,
				new CompletionDispatcher(this.queuePairs::get), this.settings.cqWaitMillis());
		if (this.settings.completionMode() == CompletionMode.EVENT) {
			queue.startEvents((task) -> newThread("completions", task));
		}
		return queue;
	}

	@Override
	public QueuePair createQueuePair(QueuePairAttributes attributes) {
		this.objects.checkOpen();
		QueuePairChecks.checkOwnership(this, attributes);
		if (attributes.maxSendSges() > DisniQueuePair.MAX_SGES || attributes.maxReceiveSges() > DisniQueuePair.MAX_SGES) {
			throw new IllegalArgumentException("libdisni 2.1 creates queue pairs with at most " + DisniQueuePair.MAX_SGES
					+ " scatter/gather entries per work request, but " + attributes.maxSendSges() + " (send) and "
					+ attributes.maxReceiveSges() + " (receive) were asked for; use at most " + DisniQueuePair.MAX_SGES);
		}
		int total = attributes.maxSendWorkRequests() + attributes.maxReceiveWorkRequests();
		if (attributes.sendCompletionQueue() == attributes.receiveCompletionQueue()
				&& total > attributes.sendCompletionQueue().capacity()) {
			// An adapter completion queue that overruns goes into error with an asynchronous
			// event DiSNI does not deliver, so say so while it is still cheap to fix.
			warnOnce("cq-size-" + System.identityHashCode(attributes.sendCompletionQueue()), "A completion queue of "
					+ attributes.sendCompletionQueue().capacity() + " entries serves a queue pair that can have "
					+ total + " work requests outstanding; if it overruns, the adapter fails it silently");
		}
		DisniQueuePair qp = new DisniQueuePair(this, attributes, this.nextQueuePairIndex.getAndIncrement());
		// The table finds a queue pair by index for its completions; the objects close it
		// with the provider.
		this.queuePairs.put(qp);
		this.objects.queuePairOpened(qp);
		return qp;
	}


	@Override
	public RdmaListener listen(InetSocketAddress address, ConnectionRequestHandler handler) {
		this.objects.checkOpen();
		Objects.requireNonNull(address, "address");
		Objects.requireNonNull(handler, "handler");
		InetSocketAddress resolved = resolve(address);
		if (resolved == null) {
			throw new RdmaException("Cannot listen on " + address + ": the name does not resolve; give an address of "
					+ "this provider's interface (" + this.bindAddress.getAddress().getHostAddress() + ")");
		}
		try {
			this.addresses.check(resolved, "listen on");
		}
		catch (IllegalArgumentException ex) {
			throw new RdmaException(ex.getMessage(), ex);
		}
		DisniListener listener = new DisniListener(this, handler);
		listener.bind(resolved);
		this.objects.listenerOpened(listener);
		return listener;
	}

	@Override
	public CompletableFuture<RdmaConnection> connect(QueuePair queuePair, ConnectParameters parameters) {
		this.objects.checkOpen();
		Objects.requireNonNull(parameters, "parameters");
		DisniQueuePair qp = ConnectChecks.ownQueuePair(this, queuePair, DisniQueuePair.class, DisniQueuePair::provider);
		InetSocketAddress remote = resolve(parameters.remoteAddress());
		if (remote == null) {
			return CompletableFuture.failedFuture(new ConnectionRefusedException("Cannot connect to "
					+ parameters.remoteAddress() + ": the name does not resolve"));
		}
		try {
			this.addresses.check(remote, "connect to");
		}
		catch (IllegalArgumentException ex) {
			return CompletableFuture.failedFuture(new ConnectionRefusedException(ex.getMessage()));
		}
		RdmaCmId id;
		try {
			id = this.connectionManager.createId();
		}
		catch (IOException ex) {
			throw new RdmaException("rdma_create_id failed: " + DisniProtectionDomain.describe(ex), ex);
		}
		DisniConnection connection = DisniConnection.active(this, qp, id, remote, parameters.listener());
		if (!qp.attach(connection)) {
			this.connectionManager.destroy(id);
			throw ConnectChecks.alreadyConnecting(qp);
		}
		this.connectionManager.register(id, connection);
		connectionOpened(connection);
		connection.startConnect(parameters.privateData(), parameters.timeout());
		return connection.establishedFuture();
	}

	private static InetSocketAddress resolve(InetSocketAddress address) {
		if (!address.isUnresolved()) {
			return address;
		}
		InetSocketAddress resolved = new InetSocketAddress(address.getHostString(), address.getPort());
		return resolved.isUnresolved() ? null : resolved;
	}

	@Override
	public boolean isClosed() {
		return this.objects.isClosed();
	}

	@Override
	public void close() {
		if (!this.objects.close()) {
			return;
		}
		this.connectionManager.destroy(this.anchor);
		this.connectionManager.close();
		this.stopPolling = true;
		if (this.busyPoller != null) {
			try {
				this.busyPoller.join(1000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		// After the queue pairs, those of failed connection attempts too: ibv_destroy_cq refuses
		// a queue that one still uses.
		this.releases.shutdown();
		try {
			this.releases.awaitTermination(2, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.sharedQueues.close();
		this.events.shutdown();
		try {
			if (!this.events.awaitTermination(1, TimeUnit.SECONDS)) {
				this.events.shutdownNow();
			}
		}
		catch (InterruptedException ex) {
			this.events.shutdownNow();
			Thread.currentThread().interrupt();
		}
	}

	// ---- for the package --------------------------------------------------------------

	DisniSettings settings() {
		return this.settings;
	}

	ScheduledThreadPoolExecutor events() {
		return this.events;
	}

	/**
	 * Runs a blocking release of adapter objects off the event threads.
	 * @param task the release
	 */
	void release(Runnable task) {
		try {
			this.releases.execute(task);
		}
		catch (RejectedExecutionException ex) {
			// The provider is closing: release here, it no longer serves events.
			task.run();
		}
	}

	SharedCompletionQueues sharedQueues() {
		return this.sharedQueues;
	}

	DisniCmExtensions cmExtensions() {
		return this.cmExtensions;
	}

	DisniAddresses addresses() {
		return this.addresses;
	}

	DisniConnectionManager connectionManager() {
		return this.connectionManager;
	}

	/**
	 * The address active cm ids bind to (port 0), which keeps them on this device.
	 * @return the interface address
	 */
	InetSocketAddress bindAddress() {
		return this.bindAddress;
	}

	/**
	 * Whether a cm id is bound to this provider's device, so that its queue pair may use
	 * this provider's protection domains and completion queues.
	 */
	boolean isOwnDevice(RdmaCmId id) throws IOException {
		IbvContext verbs = id.getVerbs();
		return verbs != null && verbs.getCmd_fd() == this.contextFd;
	}

	DisniQueuePair queuePair(int index) {
		return this.queuePairs.get(index);
	}

	Thread newThread(String role, Runnable task) {
		Thread thread = new Thread(task, "rpcrdma-disni-" + this.instance + "-" + role + "-" + this.threads.incrementAndGet());
		thread.setDaemon(true);
		return thread;
	}

	void warnOnce(String key, String message) {
		if (this.warned.add(key)) {
			logger.log(Level.WARNING, message);
		}
	}

	void queuePairClosed(DisniQueuePair qp) {
		this.queuePairs.remove(qp);
		this.objects.queuePairClosed(qp);
	}

	void completionQueueClosed(DisniCompletionQueue cq) {
		this.objects.completionQueueClosed(cq);
	}

	void protectionDomainClosed(DisniProtectionDomain pd) {
		this.objects.protectionDomainClosed(pd);
	}

	void listenerClosed(DisniListener listener) {
		this.objects.listenerClosed(listener);
	}

	void connectionOpened(DisniConnection connection) {
		this.connections.add(connection);
		this.objects.connectionOpened(connection);
	}

	void connectionClosed(DisniConnection connection) {
		this.connections.remove(connection);
		this.objects.connectionClosed(connection);
	}

	/**
	 * rdma_cm delivered {@code RDMA_CM_EVENT_DEVICE_REMOVAL} on one of this provider's cm ids:
	 * the device is going away, and the kernel's removal waits until every cm id, queue pair,
	 * completion queue, memory region and protection domain of it is destroyed. The provider
	 * owns one device, so it fails every connection (their users see the removal named),
	 * then closes itself on a thread of its own, which stops its listeners and releases all
	 * it made on the device. Runs once; later calls do nothing.
	 */
	void deviceRemoved() {
		if (!this.deviceRemoved.compareAndSet(false, true) || isClosed()) {
			return;
		}
		String detail = DeviceRemoval.detail(this.deviceName);
		logger.log(Level.ERROR, DeviceRemoval.logLine(this.deviceName, this.connections.size()));
		for (DisniConnection connection : this.connections.toArray(DisniConnection[]::new)) {
			connection.deviceRemoved(detail);
		}
		newThread("device-removal", () -> {
			awaitEvents();
			close();
			this.addresses.forgetRemovedDevices();
			logger.log(Level.INFO, "RDMA provider ''disni'' released device {0}", this.deviceName);
		}).start();
	}

	/**
	 * Waits (at most a second) until the event thread has run what is queued, the connections'
	 * failure events among them, so that their users give their buffers back before the
	 * provider deregisters the memory.
	 */
	private void awaitEvents() {
		try {
			this.events.submit(() -> {
			}).get(1, TimeUnit.SECONDS);
		}
		catch (ExecutionException | TimeoutException | RejectedExecutionException ex) {
			logger.log(Level.DEBUG, "The event thread did not drain before the provider closed", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Whether this provider's device was removed, after which it is closed.
	 * @return {@code true} once {@code RDMA_CM_EVENT_DEVICE_REMOVAL} arrived
	 */
	boolean isDeviceRemoved() {
		return this.deviceRemoved.get();
	}

	/**
	 * Busy-poll mode: one batch from each shared queue in turn, so that none waits behind
	 * another's backlog.
	 */
	private void busyPoll() {
		while (!this.stopPolling) {
			SharedCompletionQueue[] queues = this.sharedQueues.queues();
			boolean any = false;
			for (SharedCompletionQueue queue : queues) {
				any |= queue.pollBatch() > 0;
			}
			if (queues.length == 0) {
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
			}
			else if (!any) {
				Thread.onSpinWait();
			}
		}
	}

	@Override
	public String toString() {
		return "DisniProvider[device=" + this.deviceName + ", address=" + this.bindAddress.getAddress().getHostAddress()
				+ ", completions=" + this.settings.completionMode().value() + "]";
	}

}

package io.rpcrdma.service.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.client.CallTimeoutException;
import io.rpcrdma.client.ProgramVersionMismatchException;
import io.rpcrdma.client.RemoteSystemErrorException;
import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.memory.SizeClassStats;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.server.security.SecurityPolicy;
import io.rpcrdma.service.BulkData;
import io.rpcrdma.service.CallOutcome;
import io.rpcrdma.service.CallSide;
import io.rpcrdma.service.RemoteRpcException;
import io.rpcrdma.service.ResultTooLargeException;
import io.rpcrdma.service.ServiceCallObserver;
import io.rpcrdma.service.ServiceClientFactory;
import io.rpcrdma.service.ServiceClientOptions;
import io.rpcrdma.service.ServiceExporter;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.transport.TransportStats;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * Service interfaces called through client proxies and served by an exported implementation,
 * over a real RDMA provider end to end: every kind of value, exceptions travelling back as
 * typed faults, asynchronous methods, local methods, version mismatch, deadlines. Subclasses
 * choose the provider.
 */
abstract class ServiceEndToEndTests {

	static final Duration DEADLINE = Duration.ofSeconds(10);

	private RdmaProvider serverProvider;

	private RdmaProvider clientProvider;

	private RegisteredMemoryPool serverPool;

	private RegisteredMemoryPool clientPool;

	private final List<AutoCloseable> closeables = Collections.synchronizedList(new ArrayList<>());

	final InventoryService implementation = new InventoryService();

	final BlobService blobService = new BlobService();

	final List<String> observed = Collections.synchronizedList(new ArrayList<>());

	final List<String> endpoints = Collections.synchronizedList(new ArrayList<>());

	final ServiceCallObserver observer = (side, service, procedure, endpoint) -> {
		this.endpoints.add(side + " " + endpoint);
		return (outcome, conveyance, failure) -> this.observed.add(side + " " + service.name() + "." + procedure.name()
				+ " " + outcome + " " + conveyance.tag());
	};

	final ServiceIntrospector introspector = new ServiceIntrospector(CodecRegistry.standard());

	RpcServer server;

	RpcClientPool pool;

	/** What the proxies call through: the pool, or what a security flavor puts over it. */
	RpcCaller caller;

	/** @return a newly opened provider of the kind under test */
	protected abstract RdmaProvider openProvider();

	/** @return where a test server listens; port 0 for any */
	protected abstract InetSocketAddress listenAddress();

	/** @return the server's security policy: every call, unless a flavor's suite says otherwise */
	protected SecurityPolicy securityPolicy() {
		return SecurityPolicy.permitAll();
	}

	/**
	 * @param connections the client's pool
	 * @return what the proxies call through: the pool itself unless a flavor protects calls
	 */
	protected RpcCaller protect(RpcClientPool connections) {
		return connections;
	}

	/**
	 * @param options what a test asks for
	 * @return the options the proxies get: with a flavor's credential interceptor, say
	 */
	protected ServiceClientOptions withFlavor(ServiceClientOptions options) {
		return options;
	}

	/**
	 * @return whether bodies travel protected whole (RPCSEC_GSS integrity or privacy, RFC 5666
	 * §11): then nothing is placed directly, and bulk data goes as long messages and Reply chunks
	 */
	protected boolean protectsBodies() {
		return false;
	}

	@BeforeEach
	void open() {
		this.serverProvider = openProvider();
		this.clientProvider = openProvider();
		MemoryPoolConfig pools = BlobSetup.pools(protectsBodies());
		this.serverPool = new RegisteredMemoryPool(this.serverProvider.allocateProtectionDomain(), pools);
		this.clientPool = new RegisteredMemoryPool(this.clientProvider.allocateProtectionDomain(), pools);
		TransportConfig transport = BlobSetup.transport();
		ProgramRegistry registry = new ProgramRegistry();
		ServiceExporter exporter = new ServiceExporter(this.introspector, registry, this.observer);
		exporter.export(this.implementation);
		exporter.export(this.blobService);
		this.server = RpcServer.start(RpcServer.Config.defaults(this.serverProvider, this.serverPool, listenAddress())
			.withTransport(transport)
			.withExecutor(new RpcServer.ExecutorSpec(RpcServer.ExecutorKind.BOUNDED_POOL, 4, 16))
			.withSecurity(securityPolicy()), registry);
		this.closeables.add(() -> this.server.shutdown(Duration.ZERO).get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS));
		this.pool = RpcClientPool.connect(this.clientProvider, this.clientPool, this.server.localAddress(), transport, 16,
				RpcClientPool.Config.of(1, 1));
		this.closeables.add(this.pool);
		this.caller = protect(this.pool);
		if (this.caller != this.pool && this.caller instanceof AutoCloseable protection) {
			this.closeables.add(protection);
		}
	}

	@AfterEach
	void closeAll() throws Exception {
		this.implementation.release.countDown();
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
		this.clientProvider.close();
		this.serverProvider.close();
	}

	<T> T client(Class<T> type) {
		return client(type, ServiceClientOptions.DEFAULTS.withTimeout(DEADLINE));
	}

	<T> T client(Class<T> type, ServiceClientOptions options) {
		return new ServiceClientFactory(this.introspector, this.observer).create(type, this.caller, withFlavor(options));
	}

	@Test
	void recordsCollectionsAndNullsRoundTrip() throws Exception {
		Inventory inventory = client(Inventory.class);
		Inventory.Item lamp = new Inventory.Item("L-1", "Lamp", 1999, Set.of("home", "light"), null);
		Inventory.Item desk = new Inventory.Item("D-1", "Désk ✓", 25_000, Set.of("home"), "oak");
		inventory.put(lamp);
		inventory.put(desk);

		assertThat(inventory.find("L-1")).isEqualTo(lamp);
		assertThat(inventory.find("missing")).isNull();
		assertThat(inventory.search(Set.of("home"), 10)).containsExactly(desk, lamp);
		assertThat(inventory.search(Set.of("light"), 10)).containsExactly(lamp);
		assertThat(inventory.stock(List.of("L-1", "X"))).containsExactly(Map.entry("L-1", 1), Map.entry("X", 0));
		assertThat(this.implementation.puts).hasValue(2);
	}

	@Test
	void asynchronousMethodCompletesItsFuture() throws Exception {
		Inventory inventory = client(Inventory.class);
		inventory.put(new Inventory.Item("A-1", "a", 1, Set.of(), null));
		inventory.put(new Inventory.Item("A-2", "b", 1, Set.of(), null));
		inventory.put(new Inventory.Item("B-1", "c", 1, Set.of(), null));

		CompletableFuture<Integer> prefixed = inventory.countAsync(Optional.of("A-"));
		CompletableFuture<Integer> all = inventory.countAsync(Optional.empty());

		assertThat(prefixed.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(2);
		assertThat(all.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(3);
	}

	@Test
	void synchronousCallsFromSeveralThreadsAndAsynchronousOnesOnOneConnectionEachGetTheirOwnResult() throws Exception {
		// Waiting callers may read replies themselves (siw): whoever reads must hand every
		// other caller its own reply, and a reply nobody waits for must still be read.
		Inventory inventory = client(Inventory.class);
		int skus = 8;
		for (int i = 0; i < skus; i++) {
			inventory.put(new Inventory.Item("T-" + i, "item " + i, i, Set.of(), null));
		}
		int threads = 6;
		int calls = 150;
		CountDownLatch start = new CountDownLatch(1);
		List<CompletableFuture<Integer>> callers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int first = t;
			CompletableFuture<Integer> done = new CompletableFuture<>();
			callers.add(done);
			Thread thread = new Thread(() -> {
				try {
					start.await();
					int right = 0;
					CompletableFuture<Integer> counted = CompletableFuture.completedFuture(skus);
					for (int i = 0; i < calls; i++) {
						String sku = "T-" + ((first + i) % skus);
						if (i % 10 == 0) {
							// At most one asynchronous call per thread in flight, within the pool's pending limit.
							assertThat(counted.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(skus);
							counted = inventory.countAsync(Optional.of("T-"));
						}
						if (inventory.find(sku).sku().equals(sku)) {
							right++;
						}
					}
					assertThat(counted.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(skus);
					done.complete(right);
				}
				catch (Throwable ex) {
					done.completeExceptionally(ex);
				}
			}, "caller-" + t);
			thread.setDaemon(true);
			thread.start();
		}
		start.countDown();
		for (CompletableFuture<Integer> done : callers) {
			assertThat(done.get(3 * DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(calls);
		}
	}

	@Test
	void defaultAndObjectMethodsRunLocally() throws Exception {
		Inventory inventory = client(Inventory.class);
		assertThat(inventory.findOrPlaceholder("nothing").name()).isEqualTo("(none)");
		assertThat(inventory).isEqualTo(inventory).isNotEqualTo(client(Inventory.class));
		assertThat(inventory.hashCode()).isEqualTo(System.identityHashCode(inventory));
		assertThat(inventory.toString()).contains("Inventory client for").contains("version 1");
		// Only the remote find went over the wire: the default and Object methods are local.
		assertThat(this.observed).filteredOn((event) -> event.startsWith("CLIENT"))
			.containsExactly("CLIENT Inventory.find SUCCESS inline");
	}

	@Test
	void declaredCheckedExceptionIsRethrownAsItsType() {
		Inventory inventory = client(Inventory.class);
		assertThatExceptionOfType(InventoryException.class)
			.isThrownBy(() -> inventory.put(new Inventory.Item("N-1", "n", -5, Set.of(), null)))
			.withMessage("price of N-1 must not be negative")
			.satisfies((ex) -> assertThat(ex.getSuppressed()[0]).as("first the remote details, then where the client produced it")
				.isInstanceOfSatisfying(RemoteRpcException.class, (remote) -> {
					assertThat(remote.code()).isEqualTo(4001);
					assertThat(remote.getMessage()).contains("Inventory.put at " + this.pool.endpoint());
				}));
		assertThat(this.implementation.puts).hasValue(0);
		assertThat(this.observed).contains("SERVER Inventory.put FAULT inline", "CLIENT Inventory.put FAULT inline");
	}

	@Test
	void knownRuntimeExceptionIsRethrownAsItsType() {
		Inventory inventory = client(Inventory.class);
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> inventory.fail("state"))
			.withMessage("the inventory is closed");
	}

	@Test
	void exceptionTheClientCannotRebuildArrivesAsRemoteRpcException() {
		Inventory inventory = client(Inventory.class);
		assertThatExceptionOfType(RemoteRpcException.class).isThrownBy(() -> inventory.fail("server-only"))
			.satisfies((ex) -> {
				assertThat(ex.remoteType()).isEqualTo(ServerOnlyException.class.getName());
				assertThat(ex.remoteMessage()).isEqualTo("server-side reason 7");
				assertThat(ex.getMessage()).contains("Inventory.fail at " + this.pool.endpoint());
			});
		// A checked exception the method does not declare cannot be thrown by the proxy.
		assertThatExceptionOfType(RemoteRpcException.class).isThrownBy(() -> inventory.fail("undeclared-checked"))
			.satisfies((ex) -> assertThat(ex.remoteType()).isEqualTo("java.io.IOException"));
	}

	@Test
	void errorInTheImplementationIsSystemErrorNamingTheMethod() {
		Inventory inventory = client(Inventory.class);
		assertThatExceptionOfType(RemoteSystemErrorException.class).isThrownBy(() -> inventory.fail("error"))
			.withMessageContaining("Inventory.fail");
		// The server still serves.
		assertThat(inventory.fail("fine")).isEqualTo("fine");
	}

	@Test
	void resultLargerThanTheReplyRoomFailsClearly() {
		Inventory inventory = client(Inventory.class, ServiceClientOptions.DEFAULTS.withTimeout(DEADLINE).withMaxReplySize(2048));
		assertThat(inventory.blob(1000)).hasSize(1000);
		assertThatExceptionOfType(ResultTooLargeException.class).isThrownBy(() -> inventory.blob(200_000))
			.withMessageContaining("Inventory.blob")
			.withMessageContaining("@Bulk");
	}

	@Test
	void resultLargerThanTheInlineThresholdTravelsInTheReplyChunk() {
		Inventory inventory = client(Inventory.class, ServiceClientOptions.DEFAULTS.withTimeout(DEADLINE).withMaxReplySize(256 * 1024));
		inventory.fail("connect");
		long before = serverStats().replyChunksFilled();
		byte[] blob = inventory.blob(100_000);
		assertThat(blob).hasSize(100_000);
		assertThat(serverStats().replyChunksFilled() - before).as("the long reply went in the Reply chunk").isEqualTo(1);
	}

	@Test
	void versionsAreServedSideBySideAndAMissingOneIsAMismatch() throws Exception {
		Inventory v1 = client(Inventory.class);
		InventoryV2 v2 = client(InventoryV2.class);
		v1.put(new Inventory.Item("P-1", "p", 300, Set.of(), null));
		assertThat(v2.totalValueCents()).isEqualTo(300);

		ServiceIntrospector other = this.introspector;
		InventoryV3 v3 = new ServiceClientFactory(other).create(InventoryV3.class, this.caller,
				withFlavor(ServiceClientOptions.DEFAULTS.withTimeout(DEADLINE)));
		assertThatExceptionOfType(ProgramVersionMismatchException.class).isThrownBy(v3::ping)
			.withMessageContaining("Inventory.ping")
			.withMessageContaining(this.pool.endpoint())
			.satisfies((ex) -> {
				assertThat(ex.getMessage()).contains("1").contains("2");
			});
	}

	@Test
	void deadlineNamesTheServiceMethodAndEndpoint() throws Exception {
		Inventory inventory = client(Inventory.class, ServiceClientOptions.DEFAULTS.withTimeout(Duration.ofMillis(300)));
		assertThatThrownBy(() -> inventory.awaitRelease(5)).isInstanceOf(CallTimeoutException.class)
			.hasMessageContaining("Inventory.awaitRelease")
			.hasMessageContaining(this.pool.endpoint());
		assertThat(this.implementation.waiting.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		assertThat(this.observed).contains("CLIENT Inventory.awaitRelease " + CallOutcome.TIMEOUT + " inline");
		this.implementation.release.countDown();
		assertThat(client(Inventory.class).awaitRelease(6)).isEqualTo(6);
	}

	@Test
	void anInterruptedSynchronousCallGivesUpAndTheThreadsNextCallGetsItsOwnResult() throws Exception {
		Inventory inventory = client(Inventory.class);
		AtomicReference<Throwable> thrown = new AtomicReference<>();
		AtomicBoolean stillInterrupted = new AtomicBoolean();
		AtomicInteger next = new AtomicInteger();
		CountDownLatch interrupted = new CountDownLatch(1);
		CountDownLatch released = new CountDownLatch(1);
		Thread caller = new Thread(() -> {
			try {
				inventory.awaitRelease(7);
			}
			catch (Throwable ex) {
				thrown.set(ex);
				stillInterrupted.set(Thread.interrupted());
			}
			interrupted.countDown();
			try {
				// The abandoned call ends while this thread is in its next call, on the same
				// thread: its outcome must not be taken for this call's.
				released.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
				next.set(inventory.find("missing") == null ? 42 : -1);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "interrupted-caller");
		caller.start();
		assertThat(this.implementation.waiting.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		caller.interrupt();
		assertThat(interrupted.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

		assertThat(thrown.get()).isInstanceOf(CancellationException.class)
			.hasMessageContaining("Interrupted while waiting for Inventory.awaitRelease")
			.hasMessageContaining("the call may still run on the server");
		assertThat(stillInterrupted).as("the interrupt stays set").isTrue();
		this.implementation.release.countDown();
		released.countDown();
		caller.join(DEADLINE.toMillis());
		assertThat(next).hasValue(42);
	}

	@Test
	void observerSeesBothSidesOfEveryCall() {
		Inventory inventory = client(Inventory.class);
		inventory.find("x");
		assertThat(this.observed).containsExactlyInAnyOrder("SERVER Inventory.find SUCCESS inline",
				"CLIENT Inventory.find SUCCESS inline");
		// The client observes the server's endpoint, the server the client's address.
		assertThat(this.endpoints).contains("CLIENT " + this.pool.endpoint());
		assertThat(this.endpoints).filteredOn((endpoint) -> endpoint.startsWith("SERVER")).singleElement()
			.isNotEqualTo("SERVER null");
		assertThat(CallSide.values()).hasSize(2);
	}


	static final int[] SIZES = { 1024, 65_536 + 3, 1 << 20, 16 << 20, Blobs.MAX };

	static byte[] pattern(int size, long seed) {
		byte[] data = new byte[size];
		new Random(seed).nextBytes(data);
		return data;
	}

	TransportStats clientStats() {
		return this.pool.connections().get(0).transport().stats();
	}

	TransportStats serverStats() {
		return this.server.transport().connections().get(0).stats();
	}

	@Test
	void bulkArgumentsTravelInReadChunksAndResultsInWriteChunksFrom1KiBTo64MiB() {
		Blobs blobs = client(Blobs.class);
		blobs.echo("connect");
		TransportStats clientBefore = clientStats();
		TransportStats serverBefore = serverStats();
		for (int i = 0; i < SIZES.length; i++) {
			byte[] data = pattern(SIZES[i], i);
			assertThat(blobs.put("k" + i, data)).isEqualTo(BlobService.crc(ByteBuffer.wrap(data)));
			assertThat(blobs.get("k" + i)).as("blob of " + SIZES[i] + " bytes").isEqualTo(data);
		}
		TransportStats client = clientStats();
		TransportStats server = serverStats();
		if (protectsBodies()) {
			// RFC 5666 §11: protected bodies travel whole; nothing is placed directly.
			assertThat(server.writeChunksFilled() - serverBefore.writeChunksFilled()).isZero();
			assertThat(client.positionZeroChunksSent() - clientBefore.positionZeroChunksSent()).as("long calls")
				.isPositive();
			assertThat(server.replyChunksFilled() - serverBefore.replyChunksFilled()).as("long replies").isPositive();
			return;
		}
		assertThat(client.readChunksSent() - clientBefore.readChunksSent()).as("Read chunks, one per put")
			.isEqualTo(SIZES.length);
		assertThat(server.readChunksPulled() - serverBefore.readChunksPulled()).isEqualTo(SIZES.length);
		assertThat(server.writeChunksFilled() - serverBefore.writeChunksFilled()).as("Write chunks, one per get")
			.isEqualTo(SIZES.length);
		assertThat(client.positionZeroChunksSent() - clientBefore.positionZeroChunksSent()).isZero();
		assertThat(server.replyChunksFilled() - serverBefore.replyChunksFilled()).isZero();
		assertThat(this.observed).contains("CLIENT Blobs.put SUCCESS read-chunk", "CLIENT Blobs.get SUCCESS write-chunk",
				"SERVER Blobs.put SUCCESS read-chunk", "SERVER Blobs.get SUCCESS write-chunk");
	}

	@Test
	void aBulkResultInTheServersRegisteredMemoryIsWrittenFromThereWithoutACopy() throws Exception {
		Blobs blobs = client(Blobs.class);
		byte[] data = pattern(1 << 20, 11);
		blobs.put("served", data);
		RegisteredBuffer own = this.serverPool.lease(BufferRole.READ_CHUNK, data.length);
		RegisteredBuffer foreign = this.clientPool.lease(BufferRole.READ_CHUNK, data.length);
		try {
			own.buffer().duplicate().put(data);
			foreign.buffer().duplicate().put(data);
			this.blobService.served = own;
			long before = localBulkLeases(this.serverPool);
			try (BulkData result = blobs.lend("served")) {
				assertThat(result.toByteArray()).isEqualTo(data);
			}
			long copies = localBulkLeases(this.serverPool) - before;
			if (!protectsBodies()) {
				// RFC 8166 §3.4.6: the RDMA Write goes from the handler's buffer itself.
				assertThat(copies).as("LOCAL_BULK buffers the server leased to copy the result into").isZero();
			}
			// Another pool's buffer is in another protection domain: copied once, still whole.
			this.blobService.served = foreign;
			before = localBulkLeases(this.serverPool);
			try (BulkData result = blobs.lend("served")) {
				assertThat(result.toByteArray()).isEqualTo(data);
			}
			if (!protectsBodies()) {
				assertThat(localBulkLeases(this.serverPool) - before).as("the copy of a foreign buffer's result")
					.isPositive();
			}
			assertThat(blobs.echo("still connected")).isEqualTo("still connected");
		}
		finally {
			this.blobService.served = null;
			own.release();
			foreign.release();
		}
	}

	private static long localBulkLeases(RegisteredMemoryPool pool) {
		return pool.stats().sizeClasses().stream().filter((c) -> c.role() == BufferRole.LOCAL_BULK)
			.mapToLong(SizeClassStats::leases).sum();
	}

	@Test
	void aLentBulkResultIsTheWriteChunkBufferItselfUntilClosed() {
		Blobs blobs = client(Blobs.class);
		byte[] data = pattern(1 << 20, 7);
		blobs.put("lent", data);
		blobs.put("small", new byte[] { 1, 2, 3 });
		long before = this.clientPool.stats().leasedBytes();
		BulkData lent = blobs.lend("lent");
		try {
			byte[] received = new byte[lent.length()];
			lent.buffer().get(received);
			assertThat(received).isEqualTo(data);
			if (protectsBodies()) {
				// RFC 5666 §11: the result came inside the protected body, so it is a copy.
				assertThat(lent.isLent()).isFalse();
			}
			else {
				assertThat(lent.isLent()).isTrue();
				assertThat(lent.buffer().isDirect()).as("registered memory, not a heap copy").isTrue();
				assertThat(this.clientPool.stats().leasedBytes() - before).as("the Write chunk buffer, still lent")
					.isGreaterThanOrEqualTo(data.length / 2);
			}
		}
		finally {
			lent.close();
		}
		lent.close();
		assertThat(this.clientPool.stats().leasedBytes() - before).as("given back on close").isLessThan(data.length / 2);
		try (BulkData small = blobs.lend("small")) {
			assertThat(small.toByteArray()).containsExactly(1, 2, 3);
		}
		assertThat(this.clientPool.stats().leasedBytes() - before).isLessThan(data.length / 2);
	}

	@Test
	void aRegisteredBufferIsReadStraightFromTheCallersMemoryAndReachesTheServerAsRegisteredMemory() throws Exception {
		Blobs blobs = client(Blobs.class);
		blobs.echo("connect");
		long pulledBefore = serverStats().readChunksPulled();
		for (int i = 0; i < SIZES.length; i++) {
			byte[] data = pattern(SIZES[i], 100 + i);
			RegisteredBuffer buffer = this.clientPool.lease(BufferRole.READ_CHUNK, data.length);
			try {
				buffer.buffer().put(0, data);
				assertThat(blobs.putDirect("d" + i, BulkData.of(buffer, data.length)))
					.isEqualTo(BlobService.crc(ByteBuffer.wrap(data)));
				// Under krb5i or krb5p the data is copied into the protected body, and the
				// handler reads what was unwrapped.
				assertThat(this.blobService.lastArgumentDirect).as("the handler view of " + data.length + " bytes is registered (direct) memory")
					.isEqualTo(!protectsBodies());
				assertThat(this.blobService.blobs.get("d" + i)).isEqualTo(data);
			}
			finally {
				buffer.release();
			}
		}
		if (!protectsBodies()) {
			assertThat(serverStats().readChunksPulled() - pulledBefore).isEqualTo(SIZES.length);
		}
	}

	@Test
	void unmarkedBulkGoesByReadChunkFromTheThresholdAndInlineBelowIt() {
		Blobs blobs = client(Blobs.class, ServiceClientOptions.DEFAULTS.withTimeout(DEADLINE).withDdpThreshold(8192));
		blobs.echo("connect");
		long sent = clientStats().readChunksSent();
		long inline = clientStats().inlineMessages();
		long positionZero = clientStats().positionZeroChunksSent();
		byte[] small = pattern(2000, 7);
		assertThat(blobs.checksum(ByteBuffer.wrap(small))).isEqualTo(BlobService.crc(ByteBuffer.wrap(small)));
		assertThat(clientStats().readChunksSent()).isEqualTo(sent);
		assertThat(clientStats().inlineMessages()).isEqualTo(inline + 1);
		byte[] large = pattern(100_000, 8);
		assertThat(blobs.checksum(ByteBuffer.wrap(large))).isEqualTo(BlobService.crc(ByteBuffer.wrap(large)));
		if (protectsBodies()) {
			// The whole protected call goes as a long message (RFC 5666 §11).
			assertThat(clientStats().positionZeroChunksSent()).isEqualTo(positionZero + 1);
			assertThat(this.blobService.lastArgumentDirect).isFalse();
			return;
		}
		assertThat(clientStats().readChunksSent()).isEqualTo(sent + 1);
		assertThat(this.blobService.lastArgumentDirect).isTrue();
	}

	@Test
	void asynchronousBulkBothWays() throws Exception {
		Blobs blobs = client(Blobs.class);
		byte[] data = pattern(3 << 20, 9);
		ByteBuffer reversed = blobs.reverseAsync(ByteBuffer.wrap(data)).get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(reversed.remaining()).isEqualTo(data.length);
		for (int i = 0; i < data.length; i += 4099) {
			assertThat(reversed.get(i)).isEqualTo(data[data.length - 1 - i]);
		}
		if (!protectsBodies()) {
			assertThat(this.observed).contains("CLIENT Blobs.reverseAsync SUCCESS read-and-write-chunk",
					"SERVER Blobs.reverseAsync SUCCESS read-and-write-chunk");
		}
	}

	@Test
	void aBulkResultMethodStillReportsFaults() {
		Blobs blobs = client(Blobs.class);
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> blobs.get("missing"))
			.withMessage("no blob missing");
	}

	@Test
	void aBulkArgumentAboveItsLimitIsRefusedBeforeSending() throws Exception {
		Blobs blobs = client(Blobs.class);
		RegisteredBuffer buffer = this.clientPool.lease(BufferRole.READ_CHUNK, Blobs.MAX);
		try {
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> blobs.putDirect("x", BulkData.of(buffer, Blobs.MAX + 1)))
				.withMessageContaining("outside");
		}
		finally {
			buffer.release();
		}
	}

}

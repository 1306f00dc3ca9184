package io.rpcrdma.service.backchannel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.backchannel.CallbackServices;
import io.rpcrdma.client.ConnectionLostException;
import io.rpcrdma.client.ProgramUnavailableException;
import io.rpcrdma.client.RpcClient;
import io.rpcrdma.client.TooManyPendingCallsException;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.BackwardDirectionUnavailableException;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.server.ServerExecutor;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;
import io.rpcrdma.service.ServiceClientFactory;
import io.rpcrdma.service.ServiceClientOptions;
import io.rpcrdma.service.ServiceExporter;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.transport.RpcRdmaClientConnection;
import io.rpcrdma.transport.RpcRdmaServerConnection;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * Calls from a server back to the client connected to it, on the same connection (RFC 8167),
 * through exported services on both sides: during a call, after it, many at once, to a client
 * that goes away with calls pending, to a client that serves nothing, and a client that never
 * answers next to forward calls that must go on. Each provider runs the same suite.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class BackchannelEndToEndTests {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	/** What the client grants the server in the backward direction (RFC 8167 §4.1). */
	private static final int CLIENT_CREDITS = 3;

	/** The server's own bound on backward calls outstanding per connection. */
	private static final int SERVER_CREDITS = 8;

	/** The server's program. */
	@RpcProgram(number = 0x20000c00, version = 1)
	public interface Store {

		/** Stores a key, telling the caller's watcher during the call; returns the watcher's answer. */
		@RpcProcedure(1)
		String put(String key);

		/** Remembers the caller's watcher, for calls after this one. */
		@RpcProcedure(2)
		String watch(String prefix);

		/** Plain forward call. */
		@RpcProcedure(3)
		String echo(String text);

	}

	/** The program the client serves its server. */
	@RpcProgram(number = 0x20000c01, version = 1)
	public interface Watcher {

		@RpcProcedure(1)
		String changed(String key);

		@RpcProcedure(2)
		CompletableFuture<String> changedAsync(String key);

	}

	/** The server side: calls its clients back through the service binding. */
	static final class StoreService implements Store {

		final ServiceClientFactory callbacks;

		final List<Watcher> watchers = new CopyOnWriteArrayList<>();

		StoreService(ServiceClientFactory callbacks) {
			this.callbacks = callbacks;
		}

		@Override
		public String put(String key) {
			return this.callbacks.callback(Watcher.class).changed(key);
		}

		@Override
		public String watch(String prefix) {
			this.watchers.add(this.callbacks.callback(Watcher.class));
			return "watching " + prefix;
		}

		@Override
		public String echo(String text) {
			return text;
		}

	}

	/** The client side: records what the server told it, optionally held at a gate. */
	static final class RecordingWatcher implements Watcher {

		final List<String> seen = new CopyOnWriteArrayList<>();

		final AtomicInteger running = new AtomicInteger();

		final AtomicInteger mostAtOnce = new AtomicInteger();

		final AtomicReference<String> thread = new AtomicReference<>();

		volatile CountDownLatch gate = new CountDownLatch(0);

		final CountDownLatch entered = new CountDownLatch(1);

		@Override
		public String changed(String key) {
			int now = this.running.incrementAndGet();
			this.mostAtOnce.accumulateAndGet(now, Math::max);
			this.thread.set(Thread.currentThread().getName());
			this.entered.countDown();
			try {
				if (!this.gate.await(DEADLINE.toSeconds() * 2, TimeUnit.SECONDS)) {
					throw new IllegalStateException("the gate never opened");
				}
				this.seen.add(key);
				return "seen " + key;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
			finally {
				this.running.decrementAndGet();
			}
		}

		@Override
		public CompletableFuture<String> changedAsync(String key) {
			return CompletableFuture.completedFuture(changed(key));
		}

	}

	private final List<AutoCloseable> closeables = new CopyOnWriteArrayList<>();

	private final ServiceIntrospector introspector = new ServiceIntrospector(CodecRegistry.standard());

	private RdmaProvider provider;

	private RegisteredMemoryPool pool;

	private RpcServer server;

	private StoreService store;

	protected abstract RdmaProvider openProvider();

	protected abstract InetSocketAddress listenAddress();

	@AfterEach
	void close() throws Exception {
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
	}

	@Test
	void theServerCallsTheClientBackDuringACall() {
		startServer(SERVER_CREDITS);
		RecordingWatcher watcher = new RecordingWatcher();
		Store client = connect(watcher).store;

		assertThat(client.put("alpha")).isEqualTo("seen alpha");
		assertThat(watcher.seen).containsExactly("alpha");
		assertThat(watcher.thread.get()).as("the callback ran on the client's callback executor")
			.startsWith("callbacks");
	}

	@Test
	void theServerCallsTheClientBackAfterTheCallWhileTheConnectionLives() throws Exception {
		startServer(SERVER_CREDITS);
		RecordingWatcher watcher = new RecordingWatcher();
		Store client = connect(watcher).store;
		assertThat(client.watch("a/")).isEqualTo("watching a/");

		Watcher back = this.store.watchers.get(0);

		assertThat(back.changed("a/1")).isEqualTo("seen a/1");
		assertThat(back.changedAsync("a/2").get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("seen a/2");
		assertThat(watcher.seen).containsExactly("a/1", "a/2");
	}

	@Test
	void manyConcurrentCallbacksAllArriveWithinTheClientsGrant() throws Exception {
		Watched watched = watchedBehindAGate();
		RecordingWatcher watcher = watched.watcher();

		List<CompletableFuture<String>> replies = callBack(watched, "k", 100);
		watcher.gate.countDown();
		CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);

		for (int i = 0; i < 100; i++) {
			assertThat(replies.get(i).join()).isEqualTo("seen k" + i);
		}
		assertThat(watcher.seen).hasSize(100);
		assertThat(watcher.mostAtOnce.get()).as("callbacks running at once on the client")
			.isBetween(1, CLIENT_CREDITS);
		RpcRdmaServerConnection connection = this.server.connections().get(0);
		assertThat(connection.backwardCalls().orElseThrow().grant()).isEqualTo(CLIENT_CREDITS);
		assertThat(connection.backwardCalls().orElseThrow().sentCalls()).isEqualTo(100);
		assertThat(connection.backwardCalls().orElseThrow().pendingCalls()).isZero();
	}

	@Test
	void aServerThatFloodsCallbacksIsThrottledNotTheClient() throws Exception {
		Watched watched = watchedBehindAGate();
		RecordingWatcher watcher = watched.watcher();
		Connected connected = watched.connected();

		List<CompletableFuture<String>> replies = callBack(watched, "f", 400);
		watcher.gate.countDown();
		int answered = 0;
		int refused = 0;
		for (CompletableFuture<String> reply : replies) {
			try {
				reply.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
				answered++;
			}
			catch (ExecutionException ex) {
				assertThat(ex.getCause()).isInstanceOf(TooManyPendingCallsException.class);
				refused++;
			}
		}
		assertThat(answered + refused).isEqualTo(400);
		assertThat(refused).as("calls beyond the server's bound on waiting callbacks fail at once").isPositive();
		assertThat(watcher.seen).hasSize(answered);
		assertThat(watcher.mostAtOnce.get()).isBetween(1, CLIENT_CREDITS);
		assertThat(connected.store.echo("still here")).isEqualTo("still here");
	}

	@Test
	void aClientThatNeverAnswersDoesNotStallTheForwardDirection() throws Exception {
		Watched watched = watchedBehindAGate();
		RecordingWatcher watcher = watched.watcher();
		Connected connected = watched.connected();
		List<CompletableFuture<String>> held = callBack(watched, "held", CLIENT_CREDITS + 2);

		for (int i = 0; i < 50; i++) {
			assertThat(connected.store.echo("forward " + i)).isEqualTo("forward " + i);
		}
		assertThat(held).noneMatch(CompletableFuture::isDone);
		assertThat(connected.connection.backwardCallsOutstanding()).isBetween(1, CLIENT_CREDITS);

		watcher.gate.countDown();
		CompletableFuture.allOf(held.toArray(CompletableFuture[]::new)).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
	}

	@Test
	void aClientThatDisconnectsFailsEveryPendingCallbackWithConnectionLost() throws Exception {
		Watched watched = watchedBehindAGate();
		RecordingWatcher watcher = watched.watcher();
		Connected connected = watched.connected();
		List<CompletableFuture<String>> pending = callBack(watched, "lost", CLIENT_CREDITS + 3);

		connected.client.close();

		for (CompletableFuture<String> call : pending) {
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> call.get(DEADLINE.toSeconds(), TimeUnit.SECONDS))
				.withCauseInstanceOf(ConnectionLostException.class);
		}
		assertThatExceptionOfType(ConnectionLostException.class).isThrownBy(() -> watched.back().changed("after"));
		watcher.gate.countDown();
	}

	@Test
	void aClientThatServesNoCallbacksTellsTheServerAtOnce() {
		startServer(SERVER_CREDITS);
		RpcClient client = RpcClient.connect(this.provider, this.pool, this.server.localAddress(),
				TransportConfig.defaults(), 16).join();
		this.closeables.add(client);
		Store store = new ServiceClientFactory(this.introspector).create(Store.class, client,
				ServiceClientOptions.DEFAULTS.withTimeout(DEADLINE));
		store.watch("");
		Watcher back = this.store.watchers.get(0);

		assertThatExceptionOfType(ProgramUnavailableException.class).isThrownBy(() -> back.changed("x"))
			.withMessageContaining(Integer.toUnsignedString(0x20000c01))
			.withMessageContaining("backward direction");
		// One at a time, each told at once; the forward direction is untouched.
		assertThatExceptionOfType(ProgramUnavailableException.class).isThrownBy(() -> back.changed("y"));
		assertThat(store.echo("fine")).isEqualTo("fine");
	}

	@Test
	void aServerWithoutBackwardCreditsSaysHowToGetThem() {
		startServer(0);
		RecordingWatcher watcher = new RecordingWatcher();
		Store client = connect(watcher).store;

		// The server's fault travels back typed (a class the client has).
		assertThatExceptionOfType(BackwardDirectionUnavailableException.class).isThrownBy(() -> client.put("a"))
			.withMessageContaining("without a backward direction")
			.withMessageContaining("rpcrdma.server.backchannel.credits");
		assertThat(watcher.seen).isEmpty();
	}

	private void startServer(int backwardCredits) {
		this.provider = openProvider();
		this.closeables.add(this.provider);
		this.pool = new RegisteredMemoryPool(this.provider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
		this.closeables.add(this.pool);
		this.store = new StoreService(new ServiceClientFactory(this.introspector));
		ProgramRegistry registry = new ProgramRegistry();
		new ServiceExporter(this.introspector, registry).export(this.store);
		this.server = RpcServer.start(RpcServer.Config.defaults(this.provider, this.pool, listenAddress())
			.withBackwardCredits(backwardCredits), registry);
		this.closeables.add(this.server);
	}

	private Connected connect(Watcher watcher) {
		ProgramRegistry callbacks = new ProgramRegistry();
		new ServiceExporter(this.introspector, callbacks).export(watcher);
		ServerExecutor executor = ServerExecutor.boundedPool(CLIENT_CREDITS, 16, "callbacks");
		this.closeables.add(executor);
		CallbackServices services = new CallbackServices(callbacks, executor, CLIENT_CREDITS);
		RpcClient client = RpcClient.connect(this.provider, this.pool, this.server.localAddress(),
				TransportConfig.defaults(), 16, services.handler(), services.credits()).join();
		this.closeables.add(client);
		Store store = new ServiceClientFactory(this.introspector).create(Store.class, client,
				ServiceClientOptions.DEFAULTS.withTimeout(DEADLINE));
		return new Connected(client, (RpcRdmaClientConnection) client.transport(), store);
	}

	/** A server, and a client whose watcher holds every callback until its gate opens. */
	private Watched watchedBehindAGate() {
		startServer(SERVER_CREDITS);
		RecordingWatcher watcher = new RecordingWatcher();
		watcher.gate = new CountDownLatch(1);
		Connected connected = connect(watcher);
		connected.store.watch("");
		return new Watched(watcher, connected, this.store.watchers.get(0));
	}

	/** Sends {@code count} callbacks at once and waits until the first is running on the client. */
	private static List<CompletableFuture<String>> callBack(Watched watched, String prefix, int count)
			throws InterruptedException {
		List<CompletableFuture<String>> replies = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			replies.add(watched.back().changedAsync(prefix + i));
		}
		assertThat(watched.watcher().entered.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		return replies;
	}

	private record Watched(RecordingWatcher watcher, Connected connected, Watcher back) {
	}

	private record Connected(RpcClient client, RpcRdmaClientConnection connection, Store store) {
	}

}

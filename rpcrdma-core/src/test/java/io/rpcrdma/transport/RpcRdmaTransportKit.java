package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.oncrpc.VersionRange;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * What every transport test needs: two providers (one per side), registered memory pools,
 * a server, clients. Subclasses choose the provider, so the same tests run over loopback now
 * and over software iWARP later.
 */
abstract class RpcRdmaTransportKit {

	protected RdmaProvider serverProvider;

	protected RdmaProvider clientProvider;

	protected RegisteredMemoryPool serverPool;

	protected RegisteredMemoryPool clientPool;

	protected ExecutorService executor;

	protected PeerVersionCache versionCache;

	private final List<AutoCloseable> closeables = new ArrayList<>();

	/** @return a newly opened provider of the kind under test */
	protected abstract RdmaProvider openProvider();

	/** @return where a test server listens; port 0 for any */
	protected abstract InetSocketAddress listenAddress();

	/** @return how long anything that should happen may take */
	protected Duration deadline() {
		return Duration.ofSeconds(10);
	}

	@BeforeEach
	void openResources() {
		this.serverProvider = openProvider();
		this.clientProvider = openProvider();
		MemoryPoolConfig pools = MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2)
			.withLeakTracking(true);
		this.serverPool = new RegisteredMemoryPool(this.serverProvider.allocateProtectionDomain(), pools);
		this.clientPool = new RegisteredMemoryPool(this.clientProvider.allocateProtectionDomain(), pools);
		this.executor = Executors.newFixedThreadPool(4);
		this.versionCache = new PeerVersionCache(16);
	}

	@AfterEach
	void closeResources() throws Exception {
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
		this.executor.shutdownNow();
		this.clientProvider.close();
		this.serverProvider.close();
	}

	static TransportConfig config() {
		return TransportConfig.defaults().withCredits(8, 8, 12);
	}

	static TransportConfig v1Only() {
		return config().withVersions(VersionRange.VERSION_1_ONLY, 1);
	}

	RpcRdmaServer server(TransportConfig config, InboundCallHandler handler) {
		return server(config, CreditBudget.unlimited(), handler);
	}

	RpcRdmaServer server(TransportConfig config, CreditBudget budget, InboundCallHandler handler) {
		RpcRdmaServer server = RpcRdmaServer.listen(this.serverProvider, this.serverPool, listenAddress(), config, budget,
				this.executor, handler);
		this.closeables.add(server);
		return server;
	}

	/** Closes {@code closeable} after the test, before the providers. */
	<T extends AutoCloseable> T closeAfterTest(T closeable) {
		this.closeables.add(closeable);
		return closeable;
	}

	RpcRdmaServer echoServer(TransportConfig config) {
		return server(config, RpcWorkload::serve);
	}

	RpcRdmaClientConnection client(RpcRdmaServer server, TransportConfig config) throws Exception {
		RpcRdmaClientConnection client = RpcRdmaClientConnection
			.connect(this.clientProvider, this.clientPool, server.localAddress(), config, this.versionCache)
			.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
		this.closeables.add(client);
		return client;
	}

	RawPeer rawClient(RpcRdmaServer server, io.rpcrdma.verbs.PrivateData privateData) throws Exception {
		RawPeer peer = RawPeer.connect(this.clientProvider, server.localAddress(), privateData, deadline());
		this.closeables.add(peer::close);
		return peer;
	}

	<T> T await(CompletableFuture<T> future) throws Exception {
		return future.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
	}

	Throwable failure(CompletableFuture<?> future) {
		try {
			future.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			return ex.getCause();
		}
		catch (Exception ex) {
			throw new AssertionError("The future neither failed nor completed in time", ex);
		}
		throw new AssertionError("The future completed normally but was expected to fail");
	}

	void assertFails(CompletableFuture<?> future, Class<? extends Throwable> type) {
		assertThatThrownBy(() -> future.get(deadline().toMillis(), TimeUnit.MILLISECONDS))
			.isInstanceOf(ExecutionException.class)
			.cause()
			.isInstanceOf(type);
	}

	/** Waits for a condition that follows an event already triggered, up to the deadline. */
	void eventually(String what, BooleanSupplier condition) {
		long end = System.nanoTime() + deadline().toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > end) {
				throw new AssertionError("Not within " + deadline() + ": " + what);
			}
			LockSupport.parkNanos(1_000_000);
		}
	}

	RpcRdmaServerConnection onlyConnection(RpcRdmaServer server) {
		eventually("the server has a connection", () -> !server.connections().isEmpty());
		return server.connections().get(0);
	}

	/** Decodes a received message's transport header, which must be valid. */
	static io.rpcrdma.protocol.TransportHeader header(ByteBuffer message) {
		io.rpcrdma.protocol.HeaderDecodeResult result = new io.rpcrdma.protocol.TransportHeaderDecoder()
			.decode(message.duplicate());
		assertThat(result).isInstanceOf(io.rpcrdma.protocol.HeaderDecodeResult.Valid.class);
		return ((io.rpcrdma.protocol.HeaderDecodeResult.Valid) result).header();
	}

	/** The RPC message after a received header. */
	static ByteBuffer payload(ByteBuffer message) {
		io.rpcrdma.protocol.HeaderDecodeResult.Valid valid = (io.rpcrdma.protocol.HeaderDecodeResult.Valid) new io.rpcrdma.protocol.TransportHeaderDecoder()
			.decode(message.duplicate());
		return message.slice(valid.payloadOffset(), valid.payloadLength());
	}

	static ByteBuffer bytes(int... words) {
		ByteBuffer buffer = ByteBuffer.allocate(words.length * 4);
		for (int word : words) {
			buffer.putInt(word);
		}
		return buffer.flip();
	}

}

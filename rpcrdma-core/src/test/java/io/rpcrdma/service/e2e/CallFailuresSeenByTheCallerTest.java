package io.rpcrdma.service.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.client.CallTimeoutException;
import io.rpcrdma.client.PoolExhaustedException;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.client.ServerUnreachableException;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.service.ServiceClientFactory;
import io.rpcrdma.service.ServiceClientOptions;
import io.rpcrdma.service.ServiceExporter;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * What a synchronous service method throws when its call fails, over software iWARP with the
 * default settings: a server that is not running fails the call as soon as the connection is
 * refused, saying which client, service, method and address, with the refusal as cause; and a
 * failure produced on another thread (the connect, the deadline timer) carries the frames of
 * the thread that made the call.
 */
class CallFailuresSeenByTheCallerTest {

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private final ServiceIntrospector introspector = new ServiceIntrospector(CodecRegistry.standard());

	private RdmaProvider provider() {
		RdmaProvider provider = RdmaProviders.open("siw");
		this.closeables.add(provider);
		return provider;
	}

	private RegisteredMemoryPool memory(RdmaProvider provider) {
		return new RegisteredMemoryPool(provider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
	}

	private RpcClientPool pool(InetSocketAddress address) {
		RdmaProvider provider = provider();
		RpcClientPool pool = RpcClientPool.connect("inventory", provider, memory(provider), address,
				TransportConfig.defaults(), 16, RpcClientPool.Config.of(1, 1));
		this.closeables.add(pool);
		return pool;
	}

	private Inventory client(RpcClientPool pool, ServiceClientOptions options) {
		return new ServiceClientFactory(this.introspector).create(Inventory.class, pool, options);
	}

	@AfterEach
	void closeAll() throws Exception {
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
	}

	/** A port on this host that nothing listens on: bound once, then let go. */
	private static InetSocketAddress refusingAddress() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return new InetSocketAddress(InetAddress.getLoopbackAddress(), socket.getLocalPort());
		}
	}

	@Test
	void aCallToAPortThatRefusesFailsWithinASecondNamingClientServiceMethodAndAddress() throws IOException {
		InetSocketAddress address = refusingAddress();
		Inventory inventory = client(pool(address), ServiceClientOptions.DEFAULTS);

		long start = System.nanoTime();
		Throwable thrown = catchThrowable(() -> inventory.find("sku-1"));
		Duration took = Duration.ofNanos(System.nanoTime() - start);

		assertThat(took).as("the refusal ends the call, not its %s timeout", ServiceClientOptions.DEFAULTS.timeout())
			.isLessThan(Duration.ofSeconds(1));
		assertThat(thrown).isInstanceOf(ServerUnreachableException.class)
			.as("still caught as the type such calls failed with before")
			.isInstanceOf(PoolExhaustedException.class)
			.hasMessageContaining("client 'inventory'")
			.hasMessageContaining("Inventory.find")
			.hasMessageContaining("program 0x20000500 version 1 procedure 1")
			.hasMessageContaining(address.toString())
			.hasMessageContaining("was not sent")
			.hasMessageNotContaining("PT");
		assertThat(thrown.getCause()).as("the refused connection attempt").isNotNull();
		assertThat(((ServerUnreachableException) thrown).failedAttempts())
			.as("as many attempts in a row as the default retry policy gives a call")
			.isEqualTo(RpcClientPool.Config.of(1, 1).retry().maxAttempts());
		assertThat(stackTraceOf(thrown)).as("the caller's frames")
			.contains("aCallToAPortThatRefusesFailsWithinASecondNamingClientServiceMethodAndAddress");
	}

	@Test
	void aTimeoutThrownToTheCallerCarriesTheCallersFramesAndKeepsItsType() throws Exception {
		RdmaProvider serverProvider = provider();
		ProgramRegistry registry = new ProgramRegistry();
		InventoryService implementation = new InventoryService();
		new ServiceExporter(this.introspector, registry).export(implementation);
		RpcServer server = RpcServer.start(RpcServer.Config.defaults(serverProvider, memory(serverProvider),
				new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)), registry);
		this.closeables.add(() -> server.shutdown(Duration.ZERO).get(10, TimeUnit.SECONDS));
		this.closeables.add(implementation.release::countDown);
		RpcClientPool pool = pool(server.localAddress());
		assertThat(client(pool, ServiceClientOptions.DEFAULTS).find("no-such-sku")).as("connected").isNull();
		Inventory inventory = client(pool, ServiceClientOptions.DEFAULTS.withTimeout(Duration.ofMillis(300)));

		Throwable thrown = catchThrowable(() -> inventory.awaitRelease(7));

		assertThat(thrown).isInstanceOf(CallTimeoutException.class).hasMessageContaining("Inventory.awaitRelease");
		assertThat(thrown.getStackTrace()).as("the frames of the thread that made the call")
			.anyMatch((frame) -> frame.getMethodName().equals("aTimeoutThrownToTheCallerCarriesTheCallersFramesAndKeepsItsType"));
		assertThat(thrown.getSuppressed()).as("where the deadline timer produced it").hasSize(1);
		assertThat(stackTraceOf(thrown)).contains("produced on another thread");
	}

	private static String stackTraceOf(Throwable thrown) {
		StringWriter text = new StringWriter();
		thrown.printStackTrace(new PrintWriter(text));
		return text.toString();
	}

}

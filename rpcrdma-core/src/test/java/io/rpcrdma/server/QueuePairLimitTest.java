package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.RpcClient;
import io.rpcrdma.interop.PoolLeaks;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.QueuePairLimitException;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.siw.SiwSettings;

/**
 * The software iWARP provider's queue pair limit ({@code siw.max-queue-pairs}) bounds its
 * connections, and with them its threads (two per connection): a server whose provider is
 * full refuses a new connection and counts it, its connections carry on, and once one closes
 * the next requester gets in; a client whose provider is full fails to connect with
 * {@link QueuePairLimitException}, its message naming the setting, and leaks nothing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class QueuePairLimitTest {

	private static final int PROGRAM = 0x2000_7111;

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	@Test
	void aServerWhoseProviderIsFullRefusesTheNextConnectionUntilOneCloses() throws Exception {
		try (RdmaProvider serverProvider = RdmaProviders.open("siw",
				RdmaProviderConfig.defaults().with(SiwSettings.MAX_QUEUE_PAIRS, "1"));
				RdmaProvider clientProvider = RdmaProviders.open("siw");
				RegisteredMemoryPool serverMemory = memory(serverProvider);
				RegisteredMemoryPool clientMemory = memory(clientProvider)) {
			RpcServer server = start(serverProvider, serverMemory);
			try {
				RpcClient first = connect(clientProvider, clientMemory, server).join();
				call(first);

				assertThatThrownBy(() -> connect(clientProvider, clientMemory, server).join())
					.isInstanceOf(CompletionException.class);
				assertThat(server.transport().refusedConnections()).isEqualTo(1);
				call(first);
				assertThat(server.connections()).hasSize(1);

				first.close();
				// The server's queue pair goes once its side of the connection is down; until
				// then a requester may still be refused, after it never.
				RpcClient next = null;
				long deadline = System.nanoTime() + TIMEOUT.toNanos();
				while (next == null) {
					try {
						next = connect(clientProvider, clientMemory, server).join();
					}
					catch (CompletionException refused) {
						assertThat(System.nanoTime()).as("reconnected before the deadline").isLessThan(deadline);
						Thread.onSpinWait();
					}
				}
				call(next);
				next.close();
			}
			finally {
				server.shutdown(Duration.ofSeconds(1)).get(10, TimeUnit.SECONDS);
			}
			// Closing returns before the flushed receives of the closed and the refused
			// connections have come back.
			PoolLeaks.assertNone(clientMemory);
		}
	}

	@Test
	void aClientWhoseProviderIsFullFailsToConnectNamingTheSettingAndLeaksNothing() throws Exception {
		try (RdmaProvider serverProvider = RdmaProviders.open("siw");
				RdmaProvider clientProvider = RdmaProviders.open("siw",
						RdmaProviderConfig.defaults().with(SiwSettings.MAX_QUEUE_PAIRS, "1"));
				RegisteredMemoryPool serverMemory = memory(serverProvider);
				RegisteredMemoryPool clientMemory = memory(clientProvider)) {
			RpcServer server = start(serverProvider, serverMemory);
			try {
				RpcClient first = connect(clientProvider, clientMemory, server).join();
				long leased = clientMemory.stats().leasedBytes();

				assertThatThrownBy(() -> connect(clientProvider, clientMemory, server).join())
					.isInstanceOf(QueuePairLimitException.class)
					.hasMessageContaining(SiwSettings.MAX_QUEUE_PAIRS)
					.hasMessageContaining("1");
				assertThat(clientMemory.stats().leasedBytes()).as("nothing leased for the refused connection")
					.isEqualTo(leased);
				call(first);
				first.close();
			}
			finally {
				server.shutdown(Duration.ofSeconds(1)).get(10, TimeUnit.SECONDS);
			}
		}
	}

	@Test
	void theLimitMustBePositive() {
		assertThatThrownBy(() -> RdmaProviders.open("siw", RdmaProviderConfig.defaults().with(SiwSettings.MAX_QUEUE_PAIRS, "0")))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining(SiwSettings.MAX_QUEUE_PAIRS);
	}

	private static RpcServer start(RdmaProvider provider, RegisteredMemoryPool memory) {
		return RpcServer.start(RpcServer.Config.defaults(provider, memory,
				new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)), new ProgramRegistry().registerVersion(PROGRAM, 1));
	}

	private static java.util.concurrent.CompletableFuture<RpcClient> connect(RdmaProvider provider,
			RegisteredMemoryPool memory, RpcServer server) {
		return RpcClient.connect(provider, memory, server.localAddress(), TransportConfig.defaults(), 16);
	}

	private static void call(RpcClient client) {
		client.call(PROGRAM, 1, 0, CallBody.NONE, TIMEOUT).join().release();
	}

	private static RegisteredMemoryPool memory(RdmaProvider provider) {
		return new RegisteredMemoryPool(provider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
	}

}

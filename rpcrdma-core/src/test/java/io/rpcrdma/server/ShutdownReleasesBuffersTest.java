package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * A server's shutdown and a client pool's close return only once their connections' flushed
 * receives are back in the memory pool (each connection's released future), so the memory
 * pool an application closes right after finds no buffer leased: nothing to wait for there,
 * and nothing reported as a leak.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShutdownReleasesBuffersTest {

	private static final int PROGRAM = 0x2000_5eed;

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void aServerShutDownAndAPoolClosedHaveEveryBufferBackWhenTheyReturn(String providerName) throws Exception {
		try (RdmaProvider provider = RdmaProviders.open(providerName);
				RegisteredMemoryPool serverMemory = memory(provider);
				RegisteredMemoryPool clientMemory = memory(provider)) {
			InetSocketAddress bind = "loopback".equals(providerName) ? InetSocketAddress.createUnresolved("shutdown", 0)
					: new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
			RpcServer server = RpcServer.start(RpcServer.Config.defaults(provider, serverMemory, bind),
					new ProgramRegistry().registerVersion(PROGRAM, 1));
			RpcClientPool closedFirst = RpcClientPool.connect(provider, clientMemory, server.localAddress(),
					TransportConfig.defaults(), 16, RpcClientPool.Config.of(2, 2));
			for (int i = 0; i < 10; i++) {
				closedFirst.call(PROGRAM, 1, 0, CallBody.NONE, true, Duration.ofSeconds(10)).join().release();
			}
			assertThat(clientMemory.stats().leasedBytes()).as("the client's posted receives").isPositive();
			closedFirst.close();
			assertThat(clientMemory.stats().leasedBytes()).as("client buffers leased once the pool closed").isZero();

			RpcClientPool connected = RpcClientPool.connect(provider, clientMemory, server.localAddress(),
					TransportConfig.defaults(), 16, RpcClientPool.Config.of(2, 2));
			connected.call(PROGRAM, 1, 0, CallBody.NONE, true, Duration.ofSeconds(10)).join().release();
			assertThat(serverMemory.stats().leasedBytes()).as("the server's posted receives").isPositive();
			server.shutdown(Duration.ofSeconds(1)).get(10, TimeUnit.SECONDS);
			assertThat(serverMemory.stats().leasedBytes()).as("server buffers leased once the shutdown completed")
				.isZero();
			connected.close();
			assertThat(clientMemory.stats().leasedBytes()).as("client buffers of connections the server closed")
				.isZero();
		}
	}

	private static RegisteredMemoryPool memory(RdmaProvider provider) {
		return new RegisteredMemoryPool(provider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
	}

}

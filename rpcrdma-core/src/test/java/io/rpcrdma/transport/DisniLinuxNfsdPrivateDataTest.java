package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.CallTimer;
import io.rpcrdma.client.RpcClient;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.oncrpc.VersionRange;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.disni.DisniTestDevice;

/**
 * The {@code disni} provider against Linux's kernel NFS server over RDMA with RFC 8797 private
 * data (issue #37): svcrdma's accept carries its receive size, so the NFS NULL call's
 * connection sends up to 4096 bytes inline (Linux's size), neither the 1024-byte Version One
 * default nor our own 8192, and without CCP. The kernel's side of it (svcrdma's debug line
 * with our sizes) is read by the lab on the host (DisniLabTest). Runs where
 * {@code rpcrdma.disni.test-nfsd} names a kernel nfsd's RDMA address (the lab's guest).
 */
@ExtendWith(DisniTestDevice.Available.class)
class DisniLinuxNfsdPrivateDataTest {

	static final int NFS = 100003;

	@Test
	void linuxNfsdsAcceptCarriesItsInlineSizeAndNoCcpRuns() throws Exception {
		String nfsd = System.getProperty("rpcrdma.disni.test-nfsd", "");
		assumeThat(nfsd).as("-Drpcrdma.disni.test-nfsd=host:port").isNotBlank();
		InetSocketAddress address = new InetSocketAddress(DisniTestDevice.address(),
				Integer.parseInt(nfsd.substring(nfsd.lastIndexOf(':') + 1)));
		TransportConfig config = TransportConfig.defaults()
			.withVersions(VersionRange.VERSION_1_ONLY, 1)
			.withInlineThresholds(8192, 8192);
		try (RdmaProvider provider = DisniTestDevice.open();
				RegisteredMemoryPool pool = new RegisteredMemoryPool(provider.allocateProtectionDomain(),
						MemoryPoolConfig.defaults(8192))) {
			assertThat(provider.capabilities().privateDataExchange()).isTrue();
			RpcRdmaClientConnection transport = RpcRdmaClientConnection
				.connect(provider, pool, address, config, new PeerVersionCache(4))
				.get(60, TimeUnit.SECONDS);
			try (RpcClient client = new RpcClient(transport, "linux-nfsd", 16, CallTimer.shared())) {
				assertThat(transport.negotiatedInBand()).isFalse();
				assertThat(transport.inlineSizes().sendThreshold(1)).isEqualTo(4096);
				client.call(NFS, 3, 0, CallBody.NONE, Duration.ofSeconds(30)).get(60, TimeUnit.SECONDS).release();
				// The NULL call was the first message: no CONF_RDMA went before it.
				assertThat(transport.stats().inlineMessages()).isEqualTo(1);
				assertThat(transport.stats().rdmaErrorsReceived()).isZero();
			}
		}
	}

}

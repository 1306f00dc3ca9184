package io.rpcrdma.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.ReceivedReply;
import io.rpcrdma.client.CallTimer;
import io.rpcrdma.client.RpcClient;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.oncrpc.AcceptStatus;
import io.rpcrdma.oncrpc.AcceptedReply;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.protocol.RpcRdmaConstants;
import io.rpcrdma.transport.PeerVersionCache;
import io.rpcrdma.transport.RdmaErrorCounts;
import io.rpcrdma.transport.RpcRdmaClientConnection;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.transport.TransportStats;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * rpcrdma's RPC-over-RDMA client against Linux's nfsd (svcrdma) over the software iWARP
 * provider and Linux's siw: NFS's NULL procedures, and the Version Two draft's fallback to
 * Version One with a peer that speaks only RFC 8166.
 */
@InteropLab
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class LinuxNfsServerInteropTest {

	static final int NFS = 100003;

	private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

	private RdmaProvider provider;

	private RegisteredMemoryPool pool;

	@BeforeEach
	void open() {
		this.provider = RdmaProviders.open("siw");
		this.pool = new RegisteredMemoryPool(this.provider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2).withLeakTracking(true));
	}

	@AfterEach
	void close() {
		// Every buffer a call leased is back: nothing leaked on the way through Linux.
		assertThat(this.pool.leaks()).isEmpty();
		assertThat(this.pool.stats().leasedBytes()).isZero();
		this.pool.close();
		this.provider.close();
	}

	@ParameterizedTest(name = "NFSv{0} NULL")
	@ValueSource(ints = { 3, 4 })
	void nullProcedureOverRdma(int version, LabGuest guest) throws Exception {
		try (RpcClient client = connect(guest, TransportConfig.defaults())) {
			ReceivedReply reply = client.call(NFS, version, 0, CallBody.NONE, CALL_TIMEOUT).get(60, TimeUnit.SECONDS);
			try {
				assertThat(reply.header().body()).isInstanceOfSatisfying(AcceptedReply.class,
						(accepted) -> assertThat(accepted.status()).isEqualTo(AcceptStatus.SUCCESS));
				assertThat(reply.results().remaining()).isZero();
			}
			finally {
				reply.release();
			}
			assertCleanExchange(client);
		}
	}

	@Test
	void aClientPreferringVersionTwoFallsBackToVersionOneWithLinuxAndRemembersIt(LabGuest guest) throws Exception {
		// Linux speaks RFC 8166 only: the first Version Two call is answered with ERR_VERS
		// (draft-ietf-nfsv4-rpcrdma-version-two §6.3.2), the client goes on in Version One,
		// and our RFC 8797 private data does not upset Linux's connection manager.
		PeerVersionCache versions = new PeerVersionCache(4);
		assertThat(TransportConfig.defaults().preferredVersion()).isEqualTo(RpcRdmaConstants.VERSION_2);
		for (int connection = 0; connection < 2; connection++) {
			RpcRdmaClientConnection transport = RpcRdmaClientConnection
				.connect(this.provider, this.pool, LabPorts.loopback(guest.ports().nfsRdma()), TransportConfig.defaults(),
						versions)
				.get(60, TimeUnit.SECONDS);
			try (RpcClient client = new RpcClient(transport, "linux-nfsd", 16, CallTimer.shared())) {
				client.call(NFS, 3, 0, CallBody.NONE, CALL_TIMEOUT).get(60, TimeUnit.SECONDS).release();
				assertThat(transport.version()).isEqualTo(RpcRdmaConstants.VERSION_1);
				assertThat(transport.isVersionConfirmed()).isTrue();
				// Only the first connection has to ask; the second starts in Version One.
				assertThat(transport.stats().rdmaErrorsReceivedByCode().errVers()).isEqualTo((connection == 0) ? 1 : 0);
				assertCleanExchange(client);
			}
		}
	}

	private RpcClient connect(LabGuest guest, TransportConfig config) throws Exception {
		return RpcClient.connect(this.provider, this.pool, LabPorts.loopback(guest.ports().nfsRdma()), config, 16)
			.get(60, TimeUnit.SECONDS);
	}

	static void assertCleanExchange(RpcClient client) {
		TransportStats stats = client.transport().stats();
		// ERR_VERS is how a Version One peer answers a Version Two call; anything else is a fault.
		RdmaErrorCounts received = stats.rdmaErrorsReceivedByCode();
		assertThat(received.total() - received.errVers()).as("RDMA_ERROR from Linux: %s", received).isZero();
		assertThat(stats.rdmaErrorsSent()).as("RDMA_ERROR to Linux").isZero();
		assertThat(client.isOpen()).as("connection still open").isTrue();
	}

}

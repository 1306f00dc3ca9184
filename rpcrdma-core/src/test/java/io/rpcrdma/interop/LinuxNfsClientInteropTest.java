package io.rpcrdma.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.interop.nfs.ReadOnlyNfs3Export;
import io.rpcrdma.interop.nfs.TcpMountServer;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.ProcedureHandler;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.transport.RdmaErrorCounts;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.transport.TransportStats;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * Linux's NFS client (xprtrdma) against rpcrdma's RPC-over-RDMA server: the guest mounts over
 * RDMA from the host and the server sees Linux's calls arrive and answers them.
 */
@InteropLab
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class LinuxNfsClientInteropTest {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	/** One call as the server saw it. */
	record SeenCall(int program, int version, int procedure) {
	}

	@Test
	void linuxsNfsClientConnectsExchangesCreditsAndPingsOverRdma(LabGuest guest) throws Exception {
		int slot = guest.ports().hostSlots().get(2);
		BlockingQueue<SeenCall> seen = new LinkedBlockingQueue<>();
		ProgramRegistry registry = new ProgramRegistry();
		for (int version : new int[] { 3, 4 }) {
			// NULL only: what comes after it (NFSv4's SETCLIENTID) gets PROC_UNAVAIL, and the
			// mount fails, but only after connection, credits and the ping worked.
			registry.register(LinuxNfsServerInteropTest.NFS, version, 0, ProcedureHandler.of((call, arguments, results) -> seen
				.add(new SeenCall(call.program(), call.version(), call.procedure()))));
		}
		try (RdmaProvider provider = RdmaProviders.open("siw"); RegisteredMemoryPool pool = trackedPool(provider)) {
			try (RpcServer server = RpcServer.start(RpcServer.Config.defaults(provider, pool, LabPorts.loopback(slot)),
					registry)) {
				guest.startJob("mount-v4", "mkdir -p /mnt/v4 && mount -t nfs -o vers=4.0,proto=rdma,port=" + slot
						+ ",soft,timeo=100,retrans=1 " + LabPorts.HOST_FROM_GUEST + ":/ /mnt/v4");
				SeenCall ping = seen.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
				GuestCommandResult mount = guest.awaitExit("mount-v4", DEADLINE);
				String kernelLog = guest.run("dmesg | tail -20");
				assertThat(ping).as("a NULL call from Linux; mount said: %s; kernel: %s", mount.output(), kernelLog)
					.isEqualTo(new SeenCall(LinuxNfsServerInteropTest.NFS, 4, 0));
				TransportStats stats = server.transportStats();
				RdmaErrorCounts sent = stats.rdmaErrorsSentByCode();
				assertThat(sent.total()).as("RDMA_ERROR to Linux: %s", sent).isZero();
				assertThat(stats.rdmaErrorsReceived()).isZero();
				assertThat(stats.inlineMessages()).as("the ping and its reply went inline").isPositive();
				assertThat(mount.exitStatus()).as("the mount cannot succeed without COMPOUND: %s", mount.output()).isNotZero();
			}
			PoolLeaks.assertNone(pool);
		}
	}

	@Test
	void linuxMountsAnRpcrdmaNfsExportOverRdmaAndReadsItsFiles(LabGuest guest) throws Exception {
		int nfsPort = guest.ports().hostSlots().get(3);
		int mountPort = guest.ports().hostSlots().get(4);
		byte[] big = new byte[256 << 10];
		new Random(8267).nextBytes(big);
		Map<String, byte[]> files = new LinkedHashMap<>();
		files.put("hello.txt", "Hello from rpcrdma, over RDMA\n".getBytes(StandardCharsets.US_ASCII));
		files.put("big.bin", big);
		ReadOnlyNfs3Export export = new ReadOnlyNfs3Export(files);
		try (RdmaProvider provider = RdmaProviders.open("siw"); RegisteredMemoryPool pool = trackedPool(provider)) {
			try (RpcServer server = RpcServer.start(RpcServer.Config.defaults(provider, pool, LabPorts.loopback(nfsPort)),
					export.register(new ProgramRegistry()));
					TcpMountServer mountd = TcpMountServer.start(LabPorts.loopback(mountPort))) {
				String mnt = "/mnt/rpcrdma";
				GuestCommandResult mount = guest.exec("mkdir -p " + mnt + " && mount -t nfs -o vers=3,proto=rdma,port=" + nfsPort
						+ ",mountport=" + mountPort + ",mountproto=tcp,nolock,ro,soft,timeo=100,retrans=2 "
						+ LabPorts.HOST_FROM_GUEST + ":/ " + mnt, DEADLINE);
				assertThat(mount.exitStatus()).as("mount: %s; kernel: %s", mount.output(), guest.run("dmesg | tail -15"))
					.isZero();
				try {
					assertThat(mountd.answered()).contains("MNT /");
					assertThat(guest.run("cat " + mnt + "/hello.txt")).isEqualTo("Hello from rpcrdma, over RDMA\n");
					// 256 KiB: Linux offers a Write chunk and rpcrdma's server fills it.
					assertThat(guest.run("sha256sum " + mnt + "/big.bin").split(" ")[0]).isEqualTo(sha256(big));
					assertThat(server.transportStats().writeChunksFilled()).isPositive();
					assertThat(server.transportStats().rdmaErrorsSent()).isZero();
					assertThat(server.transportStats().rdmaErrorsReceived()).isZero();
				}
				finally {
					guest.exec("umount " + mnt, DEADLINE);
				}
			}
			PoolLeaks.assertNone(pool);
		}
	}

	private static RegisteredMemoryPool trackedPool(RdmaProvider provider) {
		return new RegisteredMemoryPool(provider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2).withLeakTracking(true));
	}

	private static String sha256(byte[] data) throws Exception {
		return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
	}

}

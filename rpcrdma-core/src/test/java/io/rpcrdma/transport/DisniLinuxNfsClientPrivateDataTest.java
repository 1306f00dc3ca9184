package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.ProcedureHandler;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.disni.DisniTestDevice;

/**
 * Linux's NFS client (xprtrdma) mounting from an rpcrdma server on the {@code disni} provider,
 * with RFC 8797 private data both ways (issue #37): xprtrdma's connect request carries its
 * inline sizes (4096 bytes by default), so our server, whose own threshold is 2048, sends
 * up to 2048 bytes inline instead of the 1024-byte Version One default it assumes without
 * them; and our accept carries our 2048, which the kernel's side of it shows (xprtrdma's
 * inline_thresh trace event, read by the lab on the host, DisniLabTest). No CCP runs. The
 * mount itself fails after its NULL ping: the server answers NULL only. Runs where
 * {@code rpcrdma.disni.test-nfs-mount} names an empty directory to mount on (the lab's
 * guest, as root).
 */
@ExtendWith(DisniTestDevice.Available.class)
class DisniLinuxNfsClientPrivateDataTest {

	static final int NFS = 100003;

	@Test
	void linuxsNfsClientSendsItsInlineSizesInPrivateDataAndGetsOurs() throws Exception {
		String mountPoint = System.getProperty("rpcrdma.disni.test-nfs-mount", "");
		assumeThat(mountPoint).as("-Drpcrdma.disni.test-nfs-mount=<directory>").isNotBlank();
		BlockingQueue<Integer> pings = new LinkedBlockingQueue<>();
		ProgramRegistry registry = new ProgramRegistry();
		for (int version : new int[] { 3, 4 }) {
			registry.register(NFS, version, 0, ProcedureHandler.of((call, arguments, results) -> pings.add(call.version())));
		}
		TransportConfig transport = TransportConfig.defaults().withInlineThresholds(2048, 2048);
		try (RdmaProvider provider = DisniTestDevice.open();
				RegisteredMemoryPool pool = new RegisteredMemoryPool(provider.allocateProtectionDomain(),
						MemoryPoolConfig.defaults(4096));
				RpcServer server = RpcServer.start(RpcServer.Config
					.defaults(provider, pool, new InetSocketAddress(DisniTestDevice.address(), 0))
					.withTransport(transport), registry)) {
			assertThat(provider.capabilities().privateDataExchange()).isTrue();
			Process mount = new ProcessBuilder(List.of("mount", "-t", "nfs", "-o",
					"vers=4.0,proto=rdma,port=" + server.localAddress().getPort() + ",soft,timeo=100,retrans=1",
					DisniTestDevice.address().getHostAddress() + ":/", mountPoint))
				.redirectErrorStream(true)
				.start();
			try {
				Integer version = pings.poll(60, TimeUnit.SECONDS);
				assertThat(version).as("Linux's NULL ping; mount said: %s", output(mount)).isEqualTo(4);
				RpcRdmaServerConnection connection = server.connections().get(0);
				assertThat(connection.negotiatedInBand()).isFalse();
				// Only Linux's private data can raise it above the Version One default of 1024.
				assertThat(connection.inlineSizes().sendThreshold(1)).isEqualTo(2048);
				assertThat(connection.inlineSizes().receiveThreshold(1)).isEqualTo(2048);
				assertThat(server.transportStats().rdmaErrorsReceived()).isZero();
			}
			finally {
				if (!mount.waitFor(60, TimeUnit.SECONDS)) {
					mount.destroyForcibly();
				}
			}
		}
	}

	private static String output(Process process) throws IOException {
		return process.isAlive() ? "(still running)"
				: new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
	}

}

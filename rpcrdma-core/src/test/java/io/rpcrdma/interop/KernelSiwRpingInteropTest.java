package io.rpcrdma.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.ConnectionEvent;
import io.rpcrdma.verbs.ConnectionEventType;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.siw.SiwSettings;

/**
 * The software iWARP provider against Linux's kernel siw, with rdmacm-utils' {@code rping} as
 * the independent peer (rping(1)), in both roles: MPA negotiation through Linux's iw_cm,
 * Send/Receive, RDMA Read, RDMA Write, and a Terminate for a bad STag seen on both sides
 * (RFC 5040 §4.8, RFC 5044).
 */
@InteropLab
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KernelSiwRpingInteropTest {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	private static final int SIZE = 4000;

	private static final int COUNT = 5;

	@ParameterizedTest(name = "siw.crc={0}")
	@ValueSource(strings = { "off", "require" })
	void rpcrdmaPingsALinuxRpingServer(String crc, LabGuest guest) throws Exception {
		int terminatesBefore = terminatesLinuxReceived(guest);
		stopRping(guest);
		guest.startJob("rping-server", rpingServer());
		try (RdmaProvider provider = RdmaProviders.open("siw", RdmaProviderConfig.defaults().with(SiwSettings.CRC, crc));
				RpingPeer client = RpingPeer.create(provider, SIZE, DEADLINE)) {
			List<String> echoes = client.runClient(connectablePeer(guest), COUNT, UnaryOperator.identity());
			assertThat(echoes).hasSize(COUNT).allSatisfy((echo) -> assertThat(echo).startsWith("rdma-ping-"));
			GuestCommandResult server = guest.awaitExit("rping-server", DEADLINE);
			assertRpingEndedCleanly(server);
			// rping -v prints what it RDMA Read from us: our data, through Linux's siw.
			for (String echo : echoes) {
				assertThat(server.output()).contains("server ping data: " + echo);
			}
			// Neither side saw an error: no ERROR event here, no Terminate logged there.
			assertThat(client.endpoint().events.types()).doesNotContain(ConnectionEventType.ERROR);
			assertThat(terminatesLinuxReceived(guest)).isEqualTo(terminatesBefore);
		}
	}

	@org.junit.jupiter.api.RepeatedTest(24)
	void xxxRepeated(LabGuest guest) throws Exception {
		stopRping(guest);
		guest.startJob("rping-server", rpingServer());
		try (RdmaProvider provider = RdmaProviders.open("siw", RdmaProviderConfig.defaults());
				RpingPeer client = RpingPeer.create(provider, SIZE, Duration.ofSeconds(8))) {
			List<String> echoes = client.runClient(connectablePeer(guest), COUNT, UnaryOperator.identity());
			assertThat(echoes).hasSize(COUNT);
			guest.awaitExit("rping-server", DEADLINE);
		}
	}

	@ParameterizedTest(name = "siw.crc={0}")
	@ValueSource(strings = { "off", "require" })
	void aLinuxRpingClientPingsRpcrdma(String crc, LabGuest guest) throws Exception {
		int terminatesBefore = terminatesLinuxReceived(guest);
		int slot = guest.ports().hostSlots().get(0);
		try (RdmaProvider provider = RdmaProviders.open("siw", RdmaProviderConfig.defaults().with(SiwSettings.CRC, crc));
				RpingPeer server = RpingPeer.create(provider, SIZE, DEADLINE)) {
			CompletableFuture<RpingPeer.ServedPings> served = CompletableFuture
				.supplyAsync(() -> serve(server, LabPorts.loopback(slot), UnaryOperator.identity()));
			// -V: rping checks that what we RDMA Wrote back is what it sent.
			stopRping(guest);
			guest.startJob("rping-client", rpingClient(slot) + " -V");
			GuestCommandResult client = guest.awaitExit("rping-client", DEADLINE);
			assertRpingEndedCleanly(client);
			RpingPeer.ServedPings pings = served.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			assertThat(pings.failure()).isNull();
			assertThat(pings.pings()).hasSize(COUNT);
			for (int i = 0; i < COUNT; i++) {
				assertThat(pings.pings().get(i)).startsWith("rdma-ping-" + i + ": ");
				assertThat(client.output()).contains("ping data: " + pings.pings().get(i));
			}
			assertThat(server.endpoint().events.types()).doesNotContain(ConnectionEventType.ERROR);
			assertThat(terminatesLinuxReceived(guest)).isEqualTo(terminatesBefore);
		}
	}

	@Test
	void aBadStagInOurAdvertisementEndsInATerminateTheLinuxServerSees(LabGuest guest) throws Exception {
		int terminatesBefore = terminatesLinuxReceived(guest);
		stopRping(guest);
		guest.startJob("rping-server", rpingServer());
		try (RdmaProvider provider = RdmaProviders.open("siw");
				RpingPeer client = RpingPeer.create(provider, SIZE, DEADLINE)) {
			// Linux's RDMA Read Request names an STag we never issued: we answer with a
			// Terminate (RFC 5040 §7.1, invalid STag) and the connection ends.
			CompletableFuture<Void> ping = CompletableFuture.runAsync(() -> {
				try {
					client.runClient(connectablePeer(guest), 1, (message) -> message.withStag(message.stag() ^ 0x5a5a0000));
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			});
			ConnectionEvent error = awaitError(client, guest, "rping-server");
			assertThat(error.detail()).containsIgnoringCase("stag");
			GuestCommandResult server = guest.awaitExit("rping-server", DEADLINE);
			assertThat(server.output()).doesNotContain("server ping data");
			// Linux's siw logs each Terminate it receives.
			assertThat(terminatesLinuxReceived(guest)).as(guest.run("dmesg | tail -5")).isEqualTo(terminatesBefore + 1);
			assertThat(ping).failsWithin(DEADLINE);
		}
	}

	@Test
	void aBadStagInLinuxsEyesEndsInATerminateWeSee(LabGuest guest) throws Exception {
		int slot = guest.ports().hostSlots().get(1);
		try (RdmaProvider provider = RdmaProviders.open("siw");
				RpingPeer server = RpingPeer.create(provider, SIZE, DEADLINE)) {
			// We RDMA Write the echo with an STag the client never advertised: Linux's siw
			// answers with a Terminate (RFC 5041 §7, invalid STag).
			CompletableFuture<RpingPeer.ServedPings> served = CompletableFuture
				.supplyAsync(() -> serve(server, LabPorts.loopback(slot), (stag) -> stag ^ 0x00a50000));
			stopRping(guest);
			guest.startJob("rping-client", rpingClient(slot));
			GuestCommandResult client = guest.awaitExit("rping-client", DEADLINE);
			RpingPeer.ServedPings pings = served.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			ConnectionEvent error = server.endpoint().events.await(ConnectionEventType.ERROR);
			assertThat(error.detail()).as("%s; %s", pings, client.output())
				.contains("the peer terminated the connection")
				.contains("DDP_TAGGED_INVALID_STAG");
			// Our Write completed once the socket took it (as on Linux's siw); the Terminate then
			// flushed what was outstanding, if anything was.
			if (pings.failure() != null) {
				assertThat(pings.failure().status()).isIn(CompletionStatus.REM_ACCESS_ERR, CompletionStatus.WR_FLUSH_ERR);
			}
			assertThat(client.output()).doesNotContain("ping data:");
		}
	}

	/**
	 * rping exits 0 when the connection ends, or, in a race of its own between
	 * tearing down and its connection-manager thread, 255 with "rdma_get_cm_event: Bad file
	 * descriptor" after every ping succeeded; nothing in the exchange may have failed.
	 */
	private static void assertRpingEndedCleanly(GuestCommandResult rping) {
		if (rping.exitStatus() != 0) {
			assertThat(rping.output().strip()).as("rping's exit %d", rping.exitStatus())
				.endsWith("rdma_get_cm_event: Bad file descriptor");
		}
		assertThat(rping.output()).doesNotContain("cq completion failed").doesNotContain("Bad wc")
			.doesNotContain("RDMA_READ_COMPLETE").doesNotContain("RDMA_WRITE_COMPLETE");
	}

	/** A test that failed may leave its rping running, holding the port the next one needs. */
	private static void stopRping(LabGuest guest) {
		guest.run("killall -q rping; i=0; while pidof rping > /dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; true");
	}

	private static int terminatesLinuxReceived(LabGuest guest) {
		return Integer.parseInt(guest.exec("dmesg | grep -c 'siw: got TERMINATE'", DEADLINE).output().trim());
	}

	/** The ERROR event, or a failure that shows what the guest's rping said. */
	private static ConnectionEvent awaitError(RpingPeer peer, LabGuest guest, String job) {
		try {
			return peer.endpoint().events.await(ConnectionEventType.ERROR);
		}
		catch (AssertionError ex) {
			throw new AssertionError(ex.getMessage() + "; the guest's " + job + " said: "
					+ guest.exec("cat /tmp/" + job + ".out /tmp/" + job + ".err", DEADLINE).output(), ex);
		}
	}

	private static String rpingServer() {
		return "rping -s -v -a " + LabGuest.GUEST_ADDRESS + " -p " + LabGuest.PEER_PORT + " -S " + SIZE + " -C " + COUNT;
	}

	private static String rpingClient(int slot) {
		return "timeout 50 rping -c -v -a " + LabPorts.HOST_FROM_GUEST + " -p " + slot + " -S " + SIZE + " -C "
				+ COUNT;
	}

	/**
	 * The guest's rping listener through the forward, once it listens: until then QEMU accepts
	 * the TCP connection and closes it at once, so the first MPA exchange fails.
	 */
	private static InetSocketAddress connectablePeer(LabGuest guest) {
		// A listening socket on the port (state 0A), not a connection of an earlier test.
		guest.run("i=0; while ! grep -q ':1D2F 00000000:0000 0A' /proc/net/tcp && [ $i -lt 100 ]; do sleep 0.1;"
				+ " i=$((i+1)); done");
		return LabPorts.loopback(guest.ports().peer());
	}

	private static RpingPeer.ServedPings serve(RpingPeer server, InetSocketAddress address,
			UnaryOperator<Integer> echoStag) {
		try {
			return server.serve(address, echoStag);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}

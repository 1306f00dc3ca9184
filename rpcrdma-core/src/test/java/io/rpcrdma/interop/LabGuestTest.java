package io.rpcrdma.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * The lab guest is what the interop tests take it for: Linux's soft-iWARP device on the NIC and
 * a Soft-RoCE device, both active and seen by libibverbs, nfsd listening for RPC-over-RDMA, and
 * an agent that reports exit statuses faithfully, of background jobs too.
 */
@InteropLab
class LabGuestTest {

	@Test
	void siwAndRxeDevicesAreActive(LabGuest guest) {
		String links = guest.run("rdma link show");
		assertThat(links).contains("link siw0/1 state ACTIVE").contains("netdev eth0");
		assertThat(links).contains("link rxe0/1 state ACTIVE").contains("netdev dummy0");
		// rdma_cm finds a device by an address of its NIC: each needs its IPv4 address.
		assertThat(guest.run("ip -4 addr show eth0")).contains("inet " + LabGuest.GUEST_ADDRESS + "/24");
		assertThat(guest.run("ip -4 addr show dummy0")).contains("inet 10.77.0.1/24");
		// rdma-core's userspace providers see both (the DiSNI provider will use them).
		assertThat(guest.run("ibv_devices")).contains("siw0").contains("rxe0");
	}

	@Test
	void nfsdListensForRpcOverRdma(LabGuest guest) {
		assertThat(guest.run("cat /proc/fs/nfsd/portlist")).contains("rdma 20049").contains("tcp 2049");
		assertThat(guest.run("cat /proc/fs/nfsd/versions")).contains("+3").contains("+4");
	}

	@Test
	void theAgentReportsExitStatusAndOutput(LabGuest guest) {
		GuestCommandResult result = guest.exec("echo out; echo err >&2; exit 3", Duration.ofSeconds(10));
		assertThat(result.exitStatus()).isEqualTo(3);
		assertThat(result.output()).contains("out").contains("err");
		assertThat(result.succeeded()).isFalse();
	}

	@Test
	void aBackgroundJobIsAwaitedUntilItsTimeoutAndThenToItsEnd(LabGuest guest) {
		guest.startJob("sleeper", "echo started; sleep 4; echo done; exit 5");
		assertThatExceptionOfType(LabException.class).isThrownBy(() -> guest.awaitExit("sleeper", Duration.ofSeconds(1)))
			.withMessageContaining("guest job sleeper still runs after 1 s");
		GuestCommandResult ended = guest.awaitExit("sleeper", Duration.ofSeconds(30));
		assertThat(ended.exitStatus()).isEqualTo(5);
		assertThat(ended.output()).contains("started").contains("done");
	}

}

package io.rpcrdma.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

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
	void anUnansweredCommandIsAStalledNicOnlyOnceTheGuestsConsoleReportedOne(LabGuest guest) {
		assertThatExceptionOfType(LabException.class).isThrownBy(() -> guest.exec("sleep 2", Duration.ofSeconds(1)))
			.withMessage("'sleep 2' did not finish within 1 s")
			.isNotInstanceOf(GuestNetworkStalledException.class);
		// The kernel's words, printed through its log to the serial console as the watchdog
		// prints them; the NIC itself works on, so the report is taken back at the end.
		String report = "virtio_net virtio0 eth0: NETDEV WATCHDOG: CPU: 0: transmit queue 0 timed out 5000 ms";
		try {
			guest.run("echo '<4>" + report + "' > /dev/kmsg");
			long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
			while (guest.networkStall().isEmpty() && System.nanoTime() < deadline) {
				// The console is copied by its own thread: look again shortly, until the deadline.
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
			}
			assertThat(guest.networkStall()).as("the console's report").hasValueSatisfying((line) -> assertThat(line).contains(report));
			assertThatExceptionOfType(GuestNetworkStalledException.class)
				.isThrownBy(() -> guest.exec("sleep 2", Duration.ofSeconds(1)))
				.withMessageStartingWith("'sleep 2' did not finish within 1 s; the guest's console reported '")
				.withMessageContaining(report);
		}
		finally {
			guest.forgetNetworkStall();
		}
		assertThat(guest.run("echo answered")).contains("answered");
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

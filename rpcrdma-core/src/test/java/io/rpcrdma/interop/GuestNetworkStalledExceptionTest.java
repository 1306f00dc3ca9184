package io.rpcrdma.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.SocketTimeoutException;

import org.junit.jupiter.api.Test;

/**
 * The lab recognizes its guest's stalled NIC by the kernel's own words, in the formats of the
 * kernels it boots, and nothing else: any other line, a warning of the same watchdog about
 * something else included, leaves a failing test failed.
 */
class GuestNetworkStalledExceptionTest {

	@Test
	void theNetdevWatchdogOnATransmitQueueIsAStall() {
		// Linux 6.x, as the lab's Debian kernel prints it, and as older kernels did.
		assertThat(GuestNetworkStalledException
			.reportedBy("[  995.123456] virtio_net virtio0 eth0: NETDEV WATCHDOG: CPU: 0: transmit queue 0 timed out 5120 ms"))
			.isTrue();
		assertThat(GuestNetworkStalledException
			.reportedBy("[  259.700000] NETDEV WATCHDOG: eth0 (virtio_net): transmit queue 0 timed out")).isTrue();
	}

	@Test
	void otherLinesAreNot() {
		assertThat(GuestNetworkStalledException.reportedBy("[   24.1] virtio_net virtio0 eth0: TX timeout on queue: 0"))
			.isFalse();
		assertThat(GuestNetworkStalledException.reportedBy("[   24.1] NETDEV WATCHDOG: eth0: link down")).isFalse();
		assertThat(GuestNetworkStalledException.reportedBy("lab: ready")).isFalse();
		assertThat(GuestNetworkStalledException.reportedBy("rpcrdma-lab java-11: transmit queue drained")).isFalse();
	}

	@Test
	void theMessageCarriesWhatTimedOutAndTheConsolesLine() {
		SocketTimeoutException cause = new SocketTimeoutException("Read timed out");
		GuestNetworkStalledException ex = new GuestNetworkStalledException("'dmesg' did not finish within 60 s",
				"[  995.1] virtio_net virtio0 eth0: NETDEV WATCHDOG: transmit queue 0 timed out\n", cause);
		assertThat(ex).hasMessage("'dmesg' did not finish within 60 s; the guest's console reported "
				+ "'[  995.1] virtio_net virtio0 eth0: NETDEV WATCHDOG: transmit queue 0 timed out'")
			.hasCause(cause)
			.isInstanceOf(LabException.class);
	}

}

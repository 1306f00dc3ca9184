package io.rpcrdma.verbs.disni;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.extension.ExtendWith;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.conformance.ProviderConformanceKit;

/**
 * Runs the provider conformance kit against the {@code disni} provider on this machine's
 * RDMA device, both "hosts" on the same device. On a machine without DiSNI (no libdisni,
 * no device...) the whole class is skipped, with detection's message as the reason, so no
 * test of the kit runs or fails there. The interop lab runs it in its guest on Linux's siw
 * and Soft-RoCE devices (DisniLabTest, docs/interop.md); see docs/hardware.md for running it
 * on a machine of your own.
 */
@ExtendWith(DisniTestDevice.Available.class)
class DisniProviderConformanceTest extends ProviderConformanceKit {

	@Override
	protected RdmaProvider openProvider() {
		return DisniTestDevice.open();
	}

	@Override
	protected int maxScatterGatherEntries() {
		return DisniQueuePair.MAX_SGES;
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return new InetSocketAddress(DisniTestDevice.address(), 0);
	}

}

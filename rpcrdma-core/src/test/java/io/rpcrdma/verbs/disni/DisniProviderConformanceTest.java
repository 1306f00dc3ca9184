package io.rpcrdma.verbs.disni;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.EnumSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.ProtectionDomain;
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

	/**
	 * Not part of the kit: the registration counts the lab's figures read (docs/hardware.md,
	 * "Registration cost") follow every {@code ibv_reg_mr} and {@code ibv_dereg_mr}, including
	 * the pair a re-registration (STag rotation) costs.
	 */
	@Test
	void registrationStatsCountEveryKernelRegistration() {
		DisniProvider provider = (DisniProvider) this.serverProvider;
		DisniRegistrationStats before = provider.registrationStats();
		ProtectionDomain pd = provider.allocateProtectionDomain();
		MemoryRegion region = pd.registerMemory(ByteBuffer.allocateDirect(8192),
				EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_READ));
		assertThat(provider.registrationStats().since(before)).isEqualTo(new DisniRegistrationStats(1, 0));
		int stag = region.stag();
		assertThat(region.reregister()).isNotEqualTo(stag);
		assertThat(provider.registrationStats().since(before).registrations()).isBetween(2L, 3L);
		region.deregister();
		pd.close();
		DisniRegistrationStats after = provider.registrationStats().since(before);
		assertThat(after.deregistrations()).as("every registration undone").isEqualTo(after.registrations());
	}

}

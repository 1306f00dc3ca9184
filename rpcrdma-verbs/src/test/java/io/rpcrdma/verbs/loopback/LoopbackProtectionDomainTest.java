package io.rpcrdma.verbs.loopback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.ByteBuffer;
import java.util.EnumSet;

import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

class LoopbackProtectionDomainTest {

	@Test
	void registersDirectMemoryInALoopbackProtectionDomain() {
		try (RdmaProvider provider = RdmaProviders.open("loopback")) {
			ProtectionDomain pd = provider.allocateProtectionDomain();
			MemoryRegion region = pd.registerMemory(ByteBuffer.allocateDirect(4096),
					EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_READ));
			assertThat(region.length()).isEqualTo(4096);
			assertThat(region.isValid()).isTrue();
			assertThat(region.buffer().isDirect()).isTrue();
			assertThat(region.protectionDomain()).isSameAs(pd);
			assertThat(pd.registeredRegionCount()).isEqualTo(1);
			region.deregister();
			assertThat(region.isRegistered()).isFalse();
			assertThat(pd.registeredRegionCount()).isZero();
		}
	}

	@Test
	void refusesHeapBuffers() {
		try (RdmaProvider provider = RdmaProviders.open("loopback")) {
			ProtectionDomain pd = provider.allocateProtectionDomain();
			assertThatIllegalArgumentException()
				.isThrownBy(() -> pd.registerMemory(ByteBuffer.allocate(64), EnumSet.of(AccessFlag.LOCAL_WRITE)))
				.withMessageContaining("direct ByteBuffer");
		}
	}

}

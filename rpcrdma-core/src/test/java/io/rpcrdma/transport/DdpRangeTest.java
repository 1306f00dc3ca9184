package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * A reduced item in registered memory names its buffer and a view of its data, and
 * never claims more bytes than the buffer holds.
 */
class DdpRangeTest {

	@Test
	void aRegisteredItemIsAViewOfTheBuffersFirstBytes() throws Exception {
		try (RdmaProvider provider = RdmaProviders.open("loopback");
				RegisteredMemoryPool pool = new RegisteredMemoryPool(provider.allocateProtectionDomain(),
						MemoryPoolConfig.defaults(4096))) {
			RegisteredBuffer buffer = pool.lease(BufferRole.READ_CHUNK, 8192);
			try {
				buffer.buffer().put(0, (byte) 42);
				DdpRange item = DdpRange.registered(16, buffer, 100);
				assertThat(item.isReduced()).isTrue();
				assertThat(item.registered()).isSameAs(buffer);
				assertThat(item.data(ByteBuffer.allocate(0)).remaining()).isEqualTo(100);
				assertThat(item.data(ByteBuffer.allocate(0)).get(0)).isEqualTo((byte) 42);
				assertThat(item.paddedEnd()).as("nothing of it in the message").isEqualTo(16);
				assertThatIllegalArgumentException()
					.isThrownBy(() -> new DdpRange(16, 100, null, buffer))
					.withMessageContaining("reduced from the message");
				int tooLong = buffer.length() + 1;
				assertThatIllegalArgumentException()
					.isThrownBy(() -> new DdpRange(16, tooLong, ByteBuffer.allocate(tooLong), buffer))
					.withMessageContaining("does not fit");
			}
			finally {
				buffer.release();
			}
		}
	}

}

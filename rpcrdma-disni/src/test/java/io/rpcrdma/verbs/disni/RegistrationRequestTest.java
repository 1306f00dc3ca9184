package io.rpcrdma.verbs.disni;

import static io.rpcrdma.verbs.AccessFlag.LOCAL_WRITE;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_READ;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class RegistrationRequestTest {

	@Test
	void theRegionIsTheBytesFromPositionToLimit() {
		ByteBuffer buffer = ByteBuffer.allocateDirect(256);
		buffer.position(16).limit(80);
		RegistrationRequest request = RegistrationRequest.of(buffer, EnumSet.of(LOCAL_WRITE, REMOTE_READ));
		assertThat(request.slice().capacity()).isEqualTo(64);
		assertThat(request.slice().position()).isZero();
		request.slice().put(0, (byte) 7);
		assertThat(buffer.get(16)).isEqualTo((byte) 7);
		assertThat(request.access()).containsExactlyInAnyOrder(LOCAL_WRITE, REMOTE_READ);
	}

	@Test
	void accessFlagsAreTheVerbsBits() {
		assertThat(RegistrationRequest.accessBits(Set.of())).isZero();
		assertThat(RegistrationRequest.accessBits(Set.of(LOCAL_WRITE))).isEqualTo(1);
		assertThat(RegistrationRequest.accessBits(Set.of(LOCAL_WRITE, REMOTE_WRITE))).isEqualTo(3);
		assertThat(RegistrationRequest.accessBits(Set.of(REMOTE_READ))).isEqualTo(4);
		assertThat(RegistrationRequest.accessBits(Set.of(LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ))).isEqualTo(7);
	}

	@Test
	void aHeapBufferIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RegistrationRequest.of(ByteBuffer.allocate(16), Set.of(LOCAL_WRITE)))
			.withMessageContaining("direct");
	}

	@Test
	void anEmptyBufferIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RegistrationRequest.of(ByteBuffer.allocateDirect(16).position(16), Set.of()))
			.withMessageContaining("at least one byte");
	}

	@Test
	void remoteWriteNeedsLocalWrite() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RegistrationRequest.of(ByteBuffer.allocateDirect(16), Set.of(REMOTE_WRITE)))
			.withMessageContaining("LOCAL_WRITE");
	}

	@Test
	void aReadOnlyBufferAdmitsOnlyRemoteRead() {
		ByteBuffer readOnly = ByteBuffer.allocateDirect(16).asReadOnlyBuffer();
		assertThat(RegistrationRequest.of(readOnly, Set.of(REMOTE_READ)).accessBits()).isEqualTo(4);
		assertThatIllegalArgumentException().isThrownBy(() -> RegistrationRequest.of(readOnly, Set.of(LOCAL_WRITE)))
			.withMessageContaining("read-only");
	}

}

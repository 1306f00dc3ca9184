package io.rpcrdma.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.AccessFlag;

class MemoryPoolConfigTest {

	private static final List<SizeClass> ONE_CLASS = List.of(SizeClass.of(BufferRole.RECEIVE, 1024));

	@Test
	void defaultsHaveInlineClassesOfTheThresholdAndPowerOfTwoChunkClasses() {
		MemoryPoolConfig config = MemoryPoolConfig.defaults(1024);
		assertThat(config.sizeClasses()).contains(new SizeClass(BufferRole.RECEIVE, 1024, 1024, SizeClass.UNLIMITED),
				new SizeClass(BufferRole.SEND, 1024, 1024, SizeClass.UNLIMITED));
		assertThat(config.sizeClasses()).filteredOn((c) -> c.role() == BufferRole.WRITE_CHUNK)
			.extracting(SizeClass::bufferSize)
			.containsExactly(4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1 << 20, 2 << 20, 4 << 20, 8 << 20,
					16 << 20);
		assertThat(config.slabSize()).isEqualTo(1 << 20);
		assertThat(config.maxRegisteredBytes()).isEqualTo(256L << 20);
		assertThat(config.leakTracking()).isFalse();
		assertThat(config.scrubReadChunks()).isTrue();
	}

	@Test
	void rolesGrantTheMinimumAccessTheirUseNeeds() {
		assertThat(BufferRole.RECEIVE.access()).containsExactly(AccessFlag.LOCAL_WRITE);
		assertThat(BufferRole.SEND.access()).isEmpty();
		assertThat(BufferRole.READ_CHUNK.access()).containsExactly(AccessFlag.REMOTE_READ);
		assertThat(BufferRole.WRITE_CHUNK.access()).containsExactlyInAnyOrder(AccessFlag.LOCAL_WRITE,
				AccessFlag.REMOTE_WRITE);
		assertThat(BufferRole.LOCAL_BULK.access()).containsExactly(AccessFlag.LOCAL_WRITE);
		assertThat(BufferRole.values()).filteredOn(BufferRole::isAdvertised)
			.containsExactly(BufferRole.READ_CHUNK, BufferRole.WRITE_CHUNK);
	}

	@Test
	void sizeClassNamesSayRoleAndSize() {
		assertThat(SizeClass.of(BufferRole.WRITE_CHUNK, 65536).name()).isEqualTo("write-chunk-64KiB");
		assertThat(SizeClass.of(BufferRole.RECEIVE, 1500).name()).isEqualTo("receive-1500B");
		assertThat(SizeClass.of(BufferRole.LOCAL_BULK, 16 << 20).name()).isEqualTo("local-bulk-16MiB");
	}

	@Test
	void rejectsAnEmptyClassList() {
		assertThatIllegalArgumentException().isThrownBy(() -> config(List.of(), 1 << 20, 1 << 20))
			.withMessageContaining("MemoryPoolConfig.sizeClasses is empty");
	}

	@Test
	void rejectsTwoClassesWithTheSameRoleAndSize() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> config(List.of(SizeClass.of(BufferRole.SEND, 1024), SizeClass.of(BufferRole.SEND, 1024)),
					1 << 20, 1 << 20))
			.withMessageContaining("two classes named send-1KiB");
	}

	@Test
	void rejectsASlabSizeOutOfRange() {
		assertThatIllegalArgumentException().isThrownBy(() -> config(ONE_CLASS, 100, 1 << 20))
			.withMessageContaining("MemoryPoolConfig.slabSize must be between 4 KiB and 1 GiB, got 100 bytes");
	}

	@Test
	void rejectsANonPositiveBudget() {
		assertThatIllegalArgumentException().isThrownBy(() -> config(ONE_CLASS, 1 << 20, 0))
			.withMessageContaining("MemoryPoolConfig.maxRegisteredBytes must be positive, got 0");
	}

	@Test
	void rejectsANegativeOrMissingTimeout() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new MemoryPoolConfig(ONE_CLASS, 1 << 20, 1 << 20, Duration.ofMillis(-1), false, true, 1 << 20))
			.withMessageContaining("leaseTimeout must not be negative")
			.withMessageContaining("Duration.ZERO");
		assertThatNullPointerException()
			.isThrownBy(() -> new MemoryPoolConfig(ONE_CLASS, 1 << 20, 1 << 20, null, false, true, 1 << 20))
			.withMessageContaining("leaseTimeout must not be null");
	}

	@Test
	void rejectsNullClasses() {
		List<SizeClass> classes = new ArrayList<>(ONE_CLASS);
		classes.add(null);
		assertThatNullPointerException().isThrownBy(() -> config(classes, 1 << 20, 1 << 20))
			.withMessageContaining("sizeClasses[1] is null");
	}

	@Test
	void rejectsPreRegistrationBeyondTheBudget() {
		List<SizeClass> receives = List.of(new SizeClass(BufferRole.RECEIVE, 4096, 300, SizeClass.UNLIMITED));
		assertThatIllegalArgumentException().isThrownBy(() -> config(receives, 1 << 20, 1 << 20))
			.withMessageContaining("receive size classes pre-register 1228800 bytes")
			.withMessageContaining("maxReceiveBytes is 1048576 (1 MiB)")
			.withMessageContaining("raise maxReceiveBytes or lower SizeClass.preRegistered");
		List<SizeClass> sends = List.of(new SizeClass(BufferRole.SEND, 4096, 300, SizeClass.UNLIMITED));
		assertThatIllegalArgumentException().isThrownBy(() -> config(sends, 1 << 20, 1 << 20))
			.withMessageContaining("send, chunk and bulk size classes pre-register 1228800 bytes")
			.withMessageContaining("maxRegisteredBytes is 1048576 (1 MiB)")
			.withMessageContaining("raise maxRegisteredBytes or lower SizeClass.preRegistered");
	}

	@Test
	void rejectsAClassWhoseBuffersCanNeverFitTheBudget() {
		List<SizeClass> classes = List.of(new SizeClass(BufferRole.SEND, 4096, 200, SizeClass.UNLIMITED),
				SizeClass.of(BufferRole.WRITE_CHUNK, 1 << 20));
		assertThatIllegalArgumentException().isThrownBy(() -> config(classes, 1 << 20, 1 << 20))
			.withMessageContaining("Size class write-chunk-1MiB could never lease a buffer")
			.withMessageContaining("raise maxRegisteredBytes");
	}

	@Test
	void sizeClassRejectsBadValuesWithTheirNames() {
		assertThatIllegalArgumentException().isThrownBy(() -> SizeClass.of(BufferRole.SEND, 0))
			.withMessageContaining("bufferSize must be between 1 byte and 1 GiB, got 0");
		assertThatIllegalArgumentException().isThrownBy(() -> new SizeClass(BufferRole.SEND, 1024, -1, 10))
			.withMessageContaining("send-1KiB: preRegistered must be zero or more, got -1");
		assertThatIllegalArgumentException().isThrownBy(() -> new SizeClass(BufferRole.SEND, 1024, 0, 0))
			.withMessageContaining("maxBuffers must be at least 1");
		assertThatIllegalArgumentException().isThrownBy(() -> SizeClass.of(BufferRole.SEND, 1024).withMaxBuffers(4).withPreRegistered(5))
			.withMessageContaining("preRegistered (5) exceeds maxBuffers (4)");
		assertThatNullPointerException().isThrownBy(() -> SizeClass.of(null, 1024)).withMessageContaining("BufferRole");
	}

	@Test
	void powersOfTwoNeedPowerOfTwoBoundsInOrder() {
		assertThat(SizeClass.powersOfTwo(BufferRole.READ_CHUNK, 4096, 16384)).extracting(SizeClass::bufferSize)
			.containsExactly(4096, 8192, 16384);
		assertThatIllegalArgumentException().isThrownBy(() -> SizeClass.powersOfTwo(BufferRole.READ_CHUNK, 3000, 16384))
			.withMessageContaining("power-of-two bounds, got smallest=3000");
		assertThatIllegalArgumentException().isThrownBy(() -> SizeClass.powersOfTwo(BufferRole.READ_CHUNK, 16384, 4096))
			.withMessageContaining("swap them");
	}

	@Test
	void defaultsRejectAnInlineThresholdLargerThanASlab() {
		assertThatIllegalArgumentException().isThrownBy(() -> MemoryPoolConfig.defaults(0))
			.withMessageContaining("inline threshold must be between 1 byte and 1 MiB, got 0");
	}

	@Test
	void withersChangeOneSettingAndValidate() {
		MemoryPoolConfig config = MemoryPoolConfig.defaults(4096)
			.withLeakTracking(true)
			.withLeaseTimeout(Duration.ZERO)
			.withScrubReadChunks(false)
			.withSlabSize(64 << 10);
		assertThat(config.leakTracking()).isTrue();
		assertThat(config.leaseTimeout()).isZero();
		assertThat(config.scrubReadChunks()).isFalse();
		assertThat(config.slabSize()).isEqualTo(64 << 10);
		assertThatIllegalArgumentException().isThrownBy(() -> config.withMaxRegisteredBytes(8 << 20))
			.withMessageContaining("Size class read-chunk-8MiB could never lease a buffer: its 8 MiB buffers do not fit in the 7 MiB");
	}

	private static MemoryPoolConfig config(List<SizeClass> classes, int slab, long max) {
		return new MemoryPoolConfig(classes, slab, max, Duration.ofSeconds(1), false, true, max);
	}

}

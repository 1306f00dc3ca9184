package io.rpcrdma.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

class RegisteredMemoryPoolPropertyTest {

	private static final List<SizeClass> CLASSES = List.of(SizeClass.of(BufferRole.RECEIVE, 1024),
			SizeClass.of(BufferRole.SEND, 1024), SizeClass.of(BufferRole.WRITE_CHUNK, 4096),
			SizeClass.of(BufferRole.WRITE_CHUNK, 8192), SizeClass.of(BufferRole.WRITE_CHUNK, 32768),
			SizeClass.of(BufferRole.READ_CHUNK, 4096), SizeClass.of(BufferRole.LOCAL_BULK, 4096),
			SizeClass.of(BufferRole.LOCAL_BULK, 65536));

	record Request(BufferRole role, int length) {
	}

	@Property(tries = 40)
	void leasedBuffersFitTheSmallestClassAndNeverOverlap(@ForAll("requests") @Size(max = 40) List<Request> requests)
			throws Exception {
		try (LoopbackDomain domain = new LoopbackDomain()) {
			RegisteredMemoryPool pool = new RegisteredMemoryPool(domain.pd,
					new MemoryPoolConfig(CLASSES, 16 << 10, 4 << 20, Duration.ZERO, false, true, 4 << 20));
			List<RegisteredBuffer> leased = new ArrayList<>();
			for (Request request : requests) {
				RegisteredBuffer buffer = pool.lease(request.role(), request.length());
				assertThat(buffer.role()).isEqualTo(request.role());
				assertThat(buffer.length()).isGreaterThanOrEqualTo(request.length());
				assertThat(buffer.length()).isEqualTo(smallestFitting(request));
				assertThat(buffer.offset() + buffer.length()).isLessThanOrEqualTo(buffer.region().length());
				assertThat(buffer.region().access()).isEqualTo(request.role().access());
				leased.add(buffer);
			}
			RegisteredMemoryPoolTest.assertDisjointMemory(leased);
			MemoryPoolStats stats = pool.stats();
			assertThat(stats.leasedBytes()).isEqualTo(leased.stream().mapToLong(RegisteredBuffer::length).sum());
			assertThat(stats.registeredRegions()).isEqualTo(domain.pd.registeredRegionCount());
			leased.forEach(RegisteredBuffer::release);
			assertThat(pool.stats().leasedBytes()).isZero();
			assertThat(pool.leaks()).isEmpty();
			pool.close();
			assertThat(domain.pd.registeredRegionCount()).isZero();
		}
	}

	@Provide
	Arbitrary<List<Request>> requests() {
		Arbitrary<BufferRole> roles = Arbitraries.of(BufferRole.class);
		return Combinators.combine(roles, Arbitraries.integers().between(0, 65536))
			.as((role, length) -> new Request(role, Math.min(length, largest(role))))
			.list();
	}

	private static int largest(BufferRole role) {
		return CLASSES.stream().filter((c) -> c.role() == role).mapToInt(SizeClass::bufferSize).max().orElseThrow();
	}

	private static int smallestFitting(Request request) {
		return CLASSES.stream()
			.filter((c) -> c.role() == request.role() && c.bufferSize() >= request.length())
			.mapToInt(SizeClass::bufferSize)
			.min()
			.orElseThrow();
	}

}

package io.rpcrdma.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LeakTrackingTest {

	private final LoopbackDomain domain = new LoopbackDomain();

	@AfterEach
	void closeDomain() {
		this.domain.close();
	}

	@Test
	void leaksNameTheThreadAndStackThatLeased() throws Exception {
		RegisteredMemoryPool pool = trackingPool();
		RegisteredBuffer kept = leakOneBuffer(pool);
		pool.lease(BufferRole.WRITE_CHUNK, 1).release();
		List<OutstandingLease> leaks = pool.leaks();
		assertThat(leaks).hasSize(1);
		OutstandingLease leak = leaks.get(0);
		assertThat(leak.sizeClass()).isEqualTo("receive-1KiB");
		assertThat(leak.address()).isEqualTo(kept.address());
		assertThat(leak.length()).isEqualTo(1024);
		assertThat(leak.thread()).isEqualTo(Thread.currentThread().getName());
		assertThat(leak.leasedAt()).isNotNull();
		assertThat(leak.hasLeaseSite()).isTrue();
		// The first frame is the caller of lease(), not the pool's internals.
		assertThat(leak.leaseSite().get(0).getClassName()).isEqualTo(LeakTrackingTest.class.getName());
		assertThat(leak.leaseSite().get(0).getMethodName()).isEqualTo("leakOneBuffer");
		assertThat(leak.describe()).contains("receive-1KiB", "leakOneBuffer", "leaksNameTheThreadAndStackThatLeased");
		kept.release();
		assertThat(pool.leaks()).isEmpty();
		pool.close();
	}

	@Test
	void closeWithOutstandingLeasesFailsListingThemAndStillDeregistersEverything() throws Exception {
		RegisteredMemoryPool pool = trackingPool();
		leakOneBuffer(pool);
		pool.lease(BufferRole.WRITE_CHUNK, 1);
		assertThatExceptionOfType(MemoryPoolLeakException.class).isThrownBy(pool::close)
			.withMessageContaining("closed with 2 buffers still leased")
			.withMessageContaining("every lease must end with RegisteredBuffer.release()")
			.withMessageContaining("receive-1KiB")
			.withMessageContaining("write-chunk-4KiB")
			.withMessageContaining("leakOneBuffer")
			.satisfies((ex) -> assertThat(ex.leaks()).hasSize(2));
		assertThat(this.domain.pd.registeredRegionCount()).isZero();
		assertThat(pool.stats().registeredBytes()).isZero();
	}

	@Test
	void closeAfterEveryReleaseSucceeds() throws Exception {
		RegisteredMemoryPool pool = trackingPool();
		leakOneBuffer(pool).release();
		pool.close();
		assertThat(this.domain.pd.registeredRegionCount()).isZero();
	}

	@Test
	void aStaleSecondReleaseIsDetectedEvenAfterTheBufferWasLeasedAgain() throws Exception {
		RegisteredMemoryPool pool = new RegisteredMemoryPool(this.domain.pd,
				RegisteredMemoryPoolTest.config(1 << 20, new SizeClass(BufferRole.WRITE_CHUNK, 4096, 1, 1))
					.withLeakTracking(true));
		RegisteredBuffer first = pool.lease(BufferRole.WRITE_CHUNK, 4096);
		first.release();
		RegisteredBuffer second = pool.lease(BufferRole.WRITE_CHUNK, 4096);
		assertThat(second.address()).isEqualTo(first.address());
		assertThatExceptionOfType(BufferAlreadyReleasedException.class).isThrownBy(first::release)
			.withMessageContaining("was already released")
			.withMessageContaining("leased by thread '" + Thread.currentThread().getName() + "'")
			.withMessageContaining("first released by thread")
			.satisfies((ex) -> {
				assertThat(ex.getCause().getStackTrace()[0].getMethodName())
					.isEqualTo("aStaleSecondReleaseIsDetectedEvenAfterTheBufferWasLeasedAgain");
				assertThat(ex.getSuppressed()).hasSize(1);
			});
		// The second lessee still owns the buffer.
		assertThat(second.isLeased()).isTrue();
		assertThat(pool.stats().sizeClass("write-chunk-4KiB").leased()).isEqualTo(1);
		assertThat(pool.tryLease(BufferRole.WRITE_CHUNK, 4096)).isNull();
		second.release();
		pool.close();
	}

	@Test
	void withoutTrackingLeaksAreListedWithoutSitesAndCloseOnlyLogs() throws Exception {
		RegisteredMemoryPool pool = new RegisteredMemoryPool(this.domain.pd,
				RegisteredMemoryPoolTest.config(1 << 20, SizeClass.of(BufferRole.RECEIVE, 1024)));
		RegisteredBuffer kept = leakOneBuffer(pool);
		List<OutstandingLease> leaks = pool.leaks();
		assertThat(leaks).hasSize(1);
		assertThat(leaks.get(0).address()).isEqualTo(kept.address());
		assertThat(leaks.get(0).hasLeaseSite()).isFalse();
		assertThat(leaks.get(0).describe()).contains("lease site unknown", "MemoryPoolConfig.leakTracking");
		pool.close();
		assertThat(this.domain.pd.registeredRegionCount()).isZero();
	}

	private static RegisteredBuffer leakOneBuffer(RegisteredMemoryPool pool) throws InterruptedException {
		return pool.lease(BufferRole.RECEIVE, 1000);
	}

	private RegisteredMemoryPool trackingPool() {
		return new RegisteredMemoryPool(this.domain.pd, new MemoryPoolConfig(
				List.of(SizeClass.of(BufferRole.RECEIVE, 1024), SizeClass.of(BufferRole.WRITE_CHUNK, 4096)), 64 << 10,
				1 << 20, Duration.ofSeconds(1), true, true, 1 << 20));
	}

}

package io.rpcrdma.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.RemoteAccessError;
import io.rpcrdma.verbs.RemoteAccessException;
import io.rpcrdma.verbs.RemoteAddress;

class RegistrationCacheTest {

	private static final Set<AccessFlag> LOCAL = EnumSet.of(AccessFlag.LOCAL_WRITE);

	private static final Set<AccessFlag> PEER_WRITES = EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE);

	private static final Set<AccessFlag> PEER_READS = EnumSet.of(AccessFlag.REMOTE_READ);

	private final LoopbackDomain domain = new LoopbackDomain();

	@AfterEach
	void closeDomain() {
		this.domain.close();
	}

	@Test
	void theFirstUseRegistersAndLaterUsesOfTheSameBufferHit() {
		RegistrationCache cache = new RegistrationCache(this.domain.pd, 8);
		ByteBuffer buffer = ByteBuffer.allocateDirect(64 << 10);
		CachedRegistration first = cache.acquire(buffer, LOCAL);
		MemoryRegion region = first.region();
		first.release();
		CachedRegistration second = cache.acquire(buffer, LOCAL);
		assertThat(second.region()).isSameAs(region);
		assertThat(second.offset()).isZero();
		assertThat(second.length()).isEqualTo(64 << 10);
		assertThat(second.address()).isEqualTo(region.address());
		second.release();
		RegistrationCacheStats stats = cache.stats();
		assertThat(stats.misses()).isEqualTo(1);
		assertThat(stats.hits()).isEqualTo(1);
		assertThat(stats.hitRatio()).isEqualTo(0.5);
		assertThat(stats.registrations()).isEqualTo(1);
		assertThat(stats.entries()).isEqualTo(1);
		assertThat(stats.inUse()).isZero();
		assertThat(stats.registeredBytes()).isEqualTo(64 << 10);
		assertThat(this.domain.pd.registeredRegionCount()).isEqualTo(1);
		assertThat(buffer.position()).as("the caller's position is untouched").isZero();
	}

	@Test
	void aLocalRegistrationServesAnyRangeInsideIt() {
		RegistrationCache cache = new RegistrationCache(this.domain.pd, 8);
		ByteBuffer buffer = ByteBuffer.allocateDirect(64 << 10);
		cache.acquire(buffer, LOCAL).release();
		buffer.position(100).limit(300);
		CachedRegistration inside = cache.acquire(buffer, LOCAL);
		assertThat(inside.offset()).isEqualTo(100);
		assertThat(inside.length()).isEqualTo(200);
		assertThat(inside.address()).isEqualTo(inside.region().address() + 100);
		assertThat(cache.stats().hits()).isEqualTo(1);
		inside.release();
	}

	@Test
	void aRangeNotInsideAnEntryRegistersAnew() {
		RegistrationCache cache = new RegistrationCache(this.domain.pd, 8);
		ByteBuffer buffer = ByteBuffer.allocateDirect(64 << 10);
		buffer.limit(32 << 10);
		cache.acquire(buffer, LOCAL).release();
		buffer.limit(48 << 10).position(16 << 10);
		CachedRegistration straddling = cache.acquire(buffer, LOCAL);
		assertThat(straddling.offset()).isZero();
		assertThat(straddling.region().length()).isEqualTo(32 << 10);
		assertThat(cache.stats().misses()).isEqualTo(2);
		assertThat(cache.stats().entries()).isEqualTo(2);
		straddling.release();
	}

	@Test
	void aRemotelyAccessibleRegistrationServesOnlyItsExactRange() {
		RegistrationCache cache = new RegistrationCache(this.domain.pd, 8);
		ByteBuffer buffer = ByteBuffer.allocateDirect(64 << 10);
		cache.acquire(buffer, PEER_READS).release();
		buffer.limit(4096);
		CachedRegistration part = cache.acquire(buffer, PEER_READS);
		// Reusing the 64 KiB registration would let the peer read 60 KiB it was not meant to.
		assertThat(part.region().length()).isEqualTo(4096);
		assertThat(cache.stats().misses()).isEqualTo(2);
		part.release();
		buffer.clear();
		cache.acquire(buffer, PEER_READS).release();
		assertThat(cache.stats().hits()).isEqualTo(1);
	}

	@Test
	void accessRightsMustMatchExactly() {
		RegistrationCache cache = new RegistrationCache(this.domain.pd, 8);
		ByteBuffer buffer = ByteBuffer.allocateDirect(4096);
		cache.acquire(buffer, LOCAL).release();
		CachedRegistration writable = cache.acquire(buffer, PEER_WRITES);
		assertThat(writable.region().access()).isEqualTo(PEER_WRITES);
		assertThat(cache.stats().misses()).isEqualTo(2);
		writable.release();
		assertThatIllegalStateException().isThrownBy(() -> cache.acquire(buffer, LOCAL).remoteAddress())
			.withMessageContaining("gives the peer no access");
	}

	@Test
	void anotherBufferObjectOverTheSameMemoryMisses() {
		RegistrationCache cache = new RegistrationCache(this.domain.pd, 8);
		ByteBuffer buffer = ByteBuffer.allocateDirect(4096);
		cache.acquire(buffer, LOCAL).release();
		cache.acquire(buffer.duplicate(), LOCAL).release();
		assertThat(cache.stats().misses()).isEqualTo(2);
		assertThat(cache.stats().hits()).isZero();
	}

	@Test
	void theLeastRecentlyUsedIdleEntryIsEvictedAndDeregistered() {
		RegistrationCache cache = new RegistrationCache(this.domain.pd, 2);
		ByteBuffer a = ByteBuffer.allocateDirect(4096);
		ByteBuffer b = ByteBuffer.allocateDirect(4096);
		ByteBuffer c = ByteBuffer.allocateDirect(4096);
		CachedRegistration first = cache.acquire(a, LOCAL);
		MemoryRegion regionA = first.region();
		first.release();
		CachedRegistration second = cache.acquire(b, LOCAL);
		MemoryRegion regionB = second.region();
		second.release();
		cache.acquire(a, LOCAL).release(); // a is now more recently used than b
		cache.acquire(c, LOCAL).release();
		assertThat(regionB.isRegistered()).isFalse();
		assertThat(regionA.isRegistered()).isTrue();
		assertThat(this.domain.pd.registeredRegionCount()).isEqualTo(2);
		RegistrationCacheStats stats = cache.stats();
		assertThat(stats.evictions()).isEqualTo(1);
		assertThat(stats.entries()).isEqualTo(2);
		assertThat(stats.deregistrations()).isEqualTo(1);
		cache.acquire(b, LOCAL).release();
		assertThat(cache.stats().misses()).isEqualTo(4);
		assertThat(regionA.isRegistered()).as("a was least recently used this time").isFalse();
	}

	@Test
	void anEntryInUseIsNeverEvicted() {
		RegistrationCache cache = new RegistrationCache(this.domain.pd, 1);
		ByteBuffer a = ByteBuffer.allocateDirect(4096);
		ByteBuffer b = ByteBuffer.allocateDirect(4096);
		CachedRegistration held = cache.acquire(a, LOCAL);
		CachedRegistration other = cache.acquire(b, LOCAL);
		// Over the bound while both are in use: the registrations are needed either way.
		assertThat(cache.stats().entries()).isEqualTo(2);
		assertThat(held.region().isRegistered()).isTrue();
		assertThat(other.region().isRegistered()).isTrue();
		other.release();
		assertThat(other.region().isRegistered()).as("b became idle while over the bound").isFalse();
		assertThat(held.region().isRegistered()).isTrue();
		held.release();
		assertThat(held.region().isRegistered()).as("a fits the bound").isTrue();
		assertThat(cache.stats().entries()).isEqualTo(1);
		assertThat(cache.stats().evictions()).isEqualTo(1);
	}

	@Test
	void anEntryStaysInUseUntilEveryHolderReleases() {
		RegistrationCache cache = new RegistrationCache(this.domain.pd, 1);
		ByteBuffer a = ByteBuffer.allocateDirect(4096);
		CachedRegistration one = cache.acquire(a, LOCAL);
		CachedRegistration two = cache.acquire(a, LOCAL);
		assertThat(two.region()).isSameAs(one.region());
		one.release();
		assertThat(cache.stats().inUse()).isEqualTo(1);
		cache.acquire(ByteBuffer.allocateDirect(4096), LOCAL).release();
		assertThat(two.region().isRegistered()).isTrue();
		two.release();
		assertThat(cache.stats().inUse()).isZero();
	}

	@Test
	void theByteBoundEvictsToo() {
		RegistrationCache cache = new RegistrationCache(this.domain.pd, 100, 8192);
		ByteBuffer a = ByteBuffer.allocateDirect(4096);
		cache.acquire(a, LOCAL).release();
		cache.acquire(ByteBuffer.allocateDirect(4096), LOCAL).release();
		cache.acquire(ByteBuffer.allocateDirect(4096), LOCAL).release();
		RegistrationCacheStats stats = cache.stats();
		assertThat(stats.registeredBytes()).isEqualTo(8192);
		assertThat(stats.evictions()).isEqualTo(1);
		cache.acquire(a, LOCAL).release();
		assertThat(cache.stats().hits()).as("a was the one evicted").isZero();
	}

	@Test
	void aRemotelyAccessibleEntryGetsAFreshStagWhenItsLastUserReleases() {
		RegistrationCache cache = new RegistrationCache(this.domain.pd, 8);
		ByteBuffer buffer = ByteBuffer.allocateDirect(8192);
		CachedRegistration one = cache.acquire(buffer, PEER_WRITES);
		CachedRegistration two = cache.acquire(buffer, PEER_WRITES);
		RemoteAddress advertised = one.remoteAddress();
		assertThat(two.remoteAddress()).isEqualTo(advertised);
		this.domain.checkPeerAccess(advertised, 8192, AccessFlag.REMOTE_WRITE);
		one.release();
		this.domain.checkPeerAccess(advertised, 8192, AccessFlag.REMOTE_WRITE);
		two.release();
		assertThatExceptionOfType(RemoteAccessException.class)
			.isThrownBy(() -> this.domain.checkPeerAccess(advertised, 8192, AccessFlag.REMOTE_WRITE))
			.satisfies((ex) -> assertThat(ex.error()).isEqualTo(RemoteAccessError.INVALID_STAG));
		CachedRegistration again = cache.acquire(buffer, PEER_WRITES);
		assertThat(again.region()).isSameAs(one.region());
		assertThat(again.remoteAddress().stag()).isNotEqualTo(advertised.stag());
		this.domain.checkPeerAccess(again.remoteAddress(), 8192, AccessFlag.REMOTE_WRITE);
		assertThat(cache.stats().stagRotations()).isEqualTo(1);
		again.release();
	}

	@Test
	void evictDropsABuffersEntriesNowOrWhenTheirLastUserReleases() {
		RegistrationCache cache = new RegistrationCache(this.domain.pd, 8);
		ByteBuffer buffer = ByteBuffer.allocateDirect(8192);
		CachedRegistration idle = cache.acquire(buffer, LOCAL);
		idle.release();
		CachedRegistration busy = cache.acquire(buffer, PEER_READS);
		assertThat(cache.evict(buffer)).isEqualTo(2);
		assertThat(idle.region().isRegistered()).isFalse();
		assertThat(busy.region().isRegistered()).isTrue();
		busy.release();
		assertThat(busy.region().isRegistered()).isFalse();
		assertThat(cache.stats().entries()).isZero();
		assertThat(this.domain.pd.registeredRegionCount()).isZero();
	}

	@Test
	void closeDeregistersEveryEntryEvenThoseInUse() {
		RegistrationCache cache = new RegistrationCache(this.domain.pd, 8);
		cache.acquire(ByteBuffer.allocateDirect(4096), LOCAL).release();
		CachedRegistration busy = cache.acquire(ByteBuffer.allocateDirect(4096), PEER_READS);
		cache.close();
		assertThat(this.domain.pd.registeredRegionCount()).isZero();
		RegistrationCacheStats stats = cache.stats();
		assertThat(stats.deregistrations()).isEqualTo(stats.registrations());
		assertThat(stats.entries()).isZero();
		busy.release();
		assertThatIllegalStateException().isThrownBy(() -> cache.acquire(ByteBuffer.allocateDirect(16), LOCAL))
			.withMessageContaining("registration cache is closed");
		cache.close();
	}

	@Test
	void aSecondReleaseIsDetected() {
		RegistrationCache cache = new RegistrationCache(this.domain.pd, 8);
		CachedRegistration registration = cache.acquire(ByteBuffer.allocateDirect(4096), LOCAL);
		registration.release();
		assertThatIllegalStateException().isThrownBy(registration::release)
			.withMessageContaining("was already released; release each acquire exactly once");
		assertThat(cache.stats().inUse()).isZero();
	}

	@Test
	void unsuitableBuffersAndBoundsAreRejectedWithAdvice() {
		RegistrationCache cache = new RegistrationCache(this.domain.pd, 8);
		assertThatIllegalArgumentException().isThrownBy(() -> cache.acquire(ByteBuffer.allocate(64), LOCAL))
			.withMessageContaining("direct buffers only")
			.withMessageContaining("ByteBuffer.allocateDirect");
		ByteBuffer empty = ByteBuffer.allocateDirect(64).position(64);
		assertThatIllegalArgumentException().isThrownBy(() -> cache.acquire(empty, LOCAL))
			.withMessageContaining("no bytes between position and limit");
		assertThatIllegalArgumentException().isThrownBy(() -> new RegistrationCache(this.domain.pd, 0))
			.withMessageContaining("maxEntries must be at least 1, got 0");
		assertThat(cache.stats().misses()).isZero();
	}

	@Test
	void concurrentMissesOnOneBufferKeepOneRegistration() throws Exception {
		RegistrationCache cache = new RegistrationCache(this.domain.pd, 4);
		ByteBuffer shared = ByteBuffer.allocateDirect(4096);
		int threads = 4;
		CountDownLatch start = new CountDownLatch(1);
		CountDownLatch done = new CountDownLatch(threads);
		Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
		for (int t = 0; t < threads; t++) {
			new Thread(() -> {
				try {
					start.await();
					for (int i = 0; i < 2000; i++) {
						// Each thread uses its own view of the position and limit: the
						// shared buffer object's are never changed.
						cache.acquire(shared, LOCAL).release();
					}
				}
				catch (Throwable ex) {
					failures.add(ex);
				}
				finally {
					done.countDown();
				}
			}).start();
		}
		start.countDown();
		assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(failures).isEmpty();
		RegistrationCacheStats stats = cache.stats();
		assertThat(stats.entries()).isEqualTo(1);
		assertThat(stats.inUse()).isZero();
		assertThat(stats.hits() + stats.misses()).isEqualTo(threads * 2000L);
		assertThat(stats.registrations() - stats.deregistrations()).isEqualTo(1);
		assertThat(this.domain.pd.registeredRegionCount()).isEqualTo(1);
		cache.close();
		assertThat(this.domain.pd.registeredRegionCount()).isZero();
	}

}

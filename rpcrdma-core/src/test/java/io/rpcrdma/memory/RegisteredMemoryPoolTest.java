package io.rpcrdma.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.RemoteAccessError;
import io.rpcrdma.verbs.RemoteAccessException;
import io.rpcrdma.verbs.RemoteAddress;

class RegisteredMemoryPoolTest {

	private static final int SLAB = 64 << 10;

	private final LoopbackDomain domain = new LoopbackDomain();

	private final List<RegisteredMemoryPool> pools = new ArrayList<>();

	@AfterEach
	void closeEverything() {
		for (RegisteredMemoryPool pool : this.pools) {
			pool.close();
		}
		this.domain.close();
	}

	@Test
	void leasesTheSmallestClassThatHoldsTheRequest() throws Exception {
		RegisteredMemoryPool pool = pool(4 << 20, new SizeClass(BufferRole.RECEIVE, 1024, 8, SizeClass.UNLIMITED),
				SizeClass.of(BufferRole.WRITE_CHUNK, 4096), SizeClass.of(BufferRole.WRITE_CHUNK, 8192),
				SizeClass.of(BufferRole.WRITE_CHUNK, 16384));
		RegisteredBuffer medium = pool.lease(BufferRole.WRITE_CHUNK, 5000);
		RegisteredBuffer small = pool.lease(BufferRole.WRITE_CHUNK, 0);
		RegisteredBuffer exact = pool.lease(BufferRole.WRITE_CHUNK, 16384);
		RegisteredBuffer receive = pool.lease(BufferRole.RECEIVE, 1024);
		assertThat(medium.length()).isEqualTo(8192);
		assertThat(medium.sizeClass().name()).isEqualTo("write-chunk-8KiB");
		assertThat(small.length()).isEqualTo(4096);
		assertThat(exact.length()).isEqualTo(16384);
		assertThat(receive.length()).isEqualTo(1024);
		assertThat(receive.role()).isEqualTo(BufferRole.RECEIVE);
		for (RegisteredBuffer buffer : List.of(medium, small, exact, receive)) {
			ByteBuffer view = buffer.buffer();
			assertThat(view.isDirect()).isTrue();
			assertThat(view.position()).isZero();
			assertThat(view.limit()).isEqualTo(buffer.length());
			assertThat(view.capacity()).isEqualTo(buffer.length());
			assertThat(buffer.isLeased()).isTrue();
		}
		assertThat(pool.largestBufferSize(BufferRole.WRITE_CHUNK)).isEqualTo(16384);
		assertThat(pool.largestBufferSize(BufferRole.SEND)).isZero();
	}

	@Test
	void receiveBuffersAndAllOthersHaveBudgetsOfTheirOwn() throws Exception {
		// Receives for 16 connections' worth of 4 receives of 4 KiB; 256 KiB for everything else.
		MemoryPoolConfig config = new MemoryPoolConfig(
				List.of(new SizeClass(BufferRole.RECEIVE, 4096, 0, SizeClass.UNLIMITED),
						SizeClass.of(BufferRole.LOCAL_BULK, 64 << 10)),
				SLAB, 256 << 10, Duration.ZERO, false, true, 64 << 10);
		RegisteredMemoryPool pool = track(new RegisteredMemoryPool(this.domain.pd, config));
		List<RegisteredBuffer> receives = new ArrayList<>();
		RegisteredBuffer receive;
		while ((receive = pool.tryLease(BufferRole.RECEIVE, 4096)) != null) {
			receives.add(receive);
		}
		assertThat(receives).as("receives within maxReceiveBytes").hasSize(16);
		List<RegisteredBuffer> bulk = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			bulk.add(pool.lease(BufferRole.LOCAL_BULK, 64 << 10));
		}
		assertThat(pool.tryLease(BufferRole.LOCAL_BULK, 64 << 10)).as("bulk beyond maxRegisteredBytes").isNull();
		assertThatExceptionOfType(MemoryPoolExhaustedException.class)
			.isThrownBy(() -> pool.lease(BufferRole.RECEIVE, 4096))
			.withMessageContaining("maxReceiveBytes");
		receives.get(0).release();
		assertThat(pool.tryLease(BufferRole.RECEIVE, 4096)).as("a receive comes back, bulk still full").isNotNull();
		assertThat(pool.stats().maxRegisteredBytes()).isEqualTo((256 << 10) + (64 << 10));
	}

	@Test
	void inlineBuffersShareOneSlabRegionAtDistinctOffsets() throws Exception {
		RegisteredMemoryPool pool = pool(4 << 20, new SizeClass(BufferRole.RECEIVE, 1024, 64, SizeClass.UNLIMITED));
		assertThat(this.domain.pd.registeredRegionCount()).isEqualTo(1);
		List<RegisteredBuffer> buffers = new ArrayList<>();
		for (int i = 0; i < 64; i++) {
			buffers.add(pool.lease(BufferRole.RECEIVE, 1024));
		}
		MemoryRegion slab = buffers.get(0).region();
		assertThat(slab.length()).isEqualTo(SLAB);
		assertThat(slab.access()).containsExactly(AccessFlag.LOCAL_WRITE);
		assertThat(buffers).allSatisfy((buffer) -> {
			assertThat(buffer.region()).isSameAs(slab);
			assertThat(buffer.address()).isEqualTo(slab.address() + buffer.offset());
		});
		assertThat(buffers).extracting(RegisteredBuffer::offset)
			.containsExactlyInAnyOrderElementsOf(range(0, 64, 1024));
		assertDisjointMemory(buffers);
		assertThat(this.domain.pd.registeredRegionCount()).isEqualTo(1);
	}

	@Test
	void chunkBuffersHaveTheirOwnRegionWithTheRolesAccessOnly() throws Exception {
		RegisteredMemoryPool pool = pool(4 << 20, SizeClass.of(BufferRole.WRITE_CHUNK, 4096),
				SizeClass.of(BufferRole.READ_CHUNK, 4096));
		List<RegisteredBuffer> writes = List.of(pool.lease(BufferRole.WRITE_CHUNK, 4096),
				pool.lease(BufferRole.WRITE_CHUNK, 4096), pool.lease(BufferRole.WRITE_CHUNK, 4096));
		assertThat(writes).extracting(RegisteredBuffer::region).doesNotHaveDuplicates();
		assertThat(writes).extracting((buffer) -> buffer.region().stag()).doesNotHaveDuplicates();
		for (RegisteredBuffer write : writes) {
			assertThat(write.offset()).isZero();
			assertThat(write.region().length()).isEqualTo(4096);
			assertThat(write.region().access()).containsExactlyInAnyOrder(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE);
			this.domain.checkPeerAccess(write.remoteAddress(), 4096, AccessFlag.REMOTE_WRITE);
			assertPeerRefused(write.remoteAddress(), 1, AccessFlag.REMOTE_READ, RemoteAccessError.ACCESS_RIGHTS);
		}
		assertDisjointMemory(writes);
		RegisteredBuffer read = pool.lease(BufferRole.READ_CHUNK, 100);
		assertThat(read.region().access()).containsExactly(AccessFlag.REMOTE_READ);
		this.domain.checkPeerAccess(read.remoteAddress(), 4096, AccessFlag.REMOTE_READ);
		assertPeerRefused(read.remoteAddress(), 1, AccessFlag.REMOTE_WRITE, RemoteAccessError.ACCESS_RIGHTS);
	}

	@Test
	void remoteAddressIsTheStagAndAddressOfTheFirstByte() throws Exception {
		RegisteredMemoryPool pool = pool(4 << 20, SizeClass.of(BufferRole.WRITE_CHUNK, 8192));
		RegisteredBuffer buffer = pool.lease(BufferRole.WRITE_CHUNK, 8192);
		RemoteAddress first = buffer.remoteAddress();
		assertThat(first).isEqualTo(new RemoteAddress(buffer.region().address() + buffer.offset(), buffer.region().stag()));
		assertThat(first.address()).isEqualTo(buffer.address());
		assertThat(first.stag()).isEqualTo(buffer.stag());
		this.domain.checkPeerAccess(first.plus(8191), 1, AccessFlag.REMOTE_WRITE);
		assertPeerRefused(first.plus(8192), 1, AccessFlag.REMOTE_WRITE, RemoteAccessError.BASE_OR_BOUNDS);
		assertPeerRefused(first, 8193, AccessFlag.REMOTE_WRITE, RemoteAccessError.BASE_OR_BOUNDS);
	}

	@Test
	void buffersThatShareASlabRefuseToBeAdvertised() throws Exception {
		RegisteredMemoryPool pool = pool(4 << 20, SizeClass.of(BufferRole.RECEIVE, 1024),
				SizeClass.of(BufferRole.LOCAL_BULK, 4096));
		RegisteredBuffer receive = pool.lease(BufferRole.RECEIVE, 1);
		RegisteredBuffer bulk = pool.lease(BufferRole.LOCAL_BULK, 1);
		assertThatIllegalStateException().isThrownBy(receive::remoteAddress)
			.withMessageContaining("RECEIVE buffer")
			.withMessageContaining("must never be advertised")
			.withMessageContaining("lease a READ_CHUNK or WRITE_CHUNK buffer");
		assertThatIllegalStateException().isThrownBy(bulk::stag).withMessageContaining("LOCAL_BULK buffer");
	}

	@Test
	void releasedBuffersAreReusedWithoutRegisteringAgain() throws Exception {
		RegisteredMemoryPool pool = pool(4 << 20, new SizeClass(BufferRole.SEND, 2048, 2, 2));
		long registrations = pool.stats().registrations();
		RegisteredBuffer first = pool.lease(BufferRole.SEND, 2048);
		RegisteredBuffer second = pool.lease(BufferRole.SEND, 2048);
		long firstAddress = first.address();
		first.buffer().putInt(42).flip();
		first.release();
		RegisteredBuffer third = pool.lease(BufferRole.SEND, 2048);
		assertThat(third.address()).isEqualTo(firstAddress);
		assertThat(third.address()).isNotEqualTo(second.address());
		assertThat(third.buffer().position()).isZero();
		assertThat(third.buffer().limit()).isEqualTo(2048);
		MemoryPoolStats stats = pool.stats();
		assertThat(stats.registrations()).isEqualTo(registrations);
		assertThat(stats.leases()).isEqualTo(3);
		assertThat(stats.sizeClass("send-2KiB").leased()).isEqualTo(2);
		assertThat(stats.sizeClass("send-2KiB").free()).isZero();
	}

	@Test
	void releasingAChunkBufferRetiresItsStag() throws Exception {
		RegisteredMemoryPool pool = pool(4 << 20, new SizeClass(BufferRole.WRITE_CHUNK, 4096, 1, 1));
		RegisteredBuffer buffer = pool.lease(BufferRole.WRITE_CHUNK, 4096);
		RemoteAddress advertised = buffer.remoteAddress();
		this.domain.checkPeerAccess(advertised, 4096, AccessFlag.REMOTE_WRITE);
		buffer.release();
		assertPeerRefused(advertised, 4096, AccessFlag.REMOTE_WRITE, RemoteAccessError.INVALID_STAG);
		RegisteredBuffer again = pool.lease(BufferRole.WRITE_CHUNK, 4096);
		assertThat(again.address()).isEqualTo(advertised.address());
		assertThat(again.stag()).isNotEqualTo(advertised.stag());
		this.domain.checkPeerAccess(again.remoteAddress(), 4096, AccessFlag.REMOTE_WRITE);
		assertPeerRefused(advertised, 4096, AccessFlag.REMOTE_WRITE, RemoteAccessError.INVALID_STAG);
		assertThat(pool.stats().stagRotations()).isEqualTo(1);
		assertThat(this.domain.pd.registeredRegionCount()).isEqualTo(1);
	}

	@Test
	void releasingAnInlineBufferKeepsTheSlabsStag() throws Exception {
		RegisteredMemoryPool pool = pool(4 << 20, new SizeClass(BufferRole.RECEIVE, 1024, 2, 2));
		RegisteredBuffer first = pool.lease(BufferRole.RECEIVE, 1024);
		RegisteredBuffer second = pool.lease(BufferRole.RECEIVE, 1024);
		int stag = second.region().stag();
		first.release();
		assertThat(second.region().isValid()).isTrue();
		assertThat(second.region().stag()).isEqualTo(stag);
		assertThat(pool.stats().stagRotations()).isZero();
	}

	@Test
	void readChunksAreZeroedOnRelease() throws Exception {
		assertThat(contentAfterReuse(true)).containsOnly(0);
	}

	@Test
	void readChunksKeepTheirBytesWhenScrubbingIsOff() throws Exception {
		assertThat(contentAfterReuse(false)).containsOnly(0x5A);
	}

	private byte[] contentAfterReuse(boolean scrub) throws Exception {
		RegisteredMemoryPool pool = track(new RegisteredMemoryPool(this.domain.pd,
				config(4 << 20, new SizeClass(BufferRole.READ_CHUNK, 4096, 1, 1)).withScrubReadChunks(scrub)));
		RegisteredBuffer buffer = pool.lease(BufferRole.READ_CHUNK, 4096);
		while (buffer.buffer().hasRemaining()) {
			buffer.buffer().put((byte) 0x5A);
		}
		buffer.release();
		RegisteredBuffer again = pool.lease(BufferRole.READ_CHUNK, 4096);
		byte[] content = new byte[4096];
		again.buffer().get(content);
		return content;
	}

	@Test
	void aDoubleReleaseIsDetectedAndNeverFreesTheBufferTwice() throws Exception {
		RegisteredMemoryPool pool = pool(4 << 20, new SizeClass(BufferRole.SEND, 1024, 2, 2));
		RegisteredBuffer buffer = pool.lease(BufferRole.SEND, 1024);
		buffer.release();
		assertThatExceptionOfType(BufferAlreadyReleasedException.class).isThrownBy(buffer::release)
			.withMessageContaining("send-1KiB")
			.withMessageContaining("was already released; release each lease exactly once")
			.withMessageContaining("MemoryPoolConfig.leakTracking");
		RegisteredBuffer a = pool.lease(BufferRole.SEND, 1024);
		RegisteredBuffer b = pool.lease(BufferRole.SEND, 1024);
		assertThat(a.address()).isNotEqualTo(b.address());
		assertThat(pool.tryLease(BufferRole.SEND, 1024)).isNull();
		assertThat(pool.stats().sizeClass("send-1KiB").leased()).isEqualTo(2);
	}

	@Test
	void aReleasedBufferCannotBeUsed() throws Exception {
		RegisteredMemoryPool pool = pool(4 << 20, SizeClass.of(BufferRole.WRITE_CHUNK, 4096));
		RegisteredBuffer buffer = pool.lease(BufferRole.WRITE_CHUNK, 4096);
		buffer.release();
		assertThat(buffer.isLeased()).isFalse();
		assertThatIllegalStateException().isThrownBy(buffer::buffer)
			.withMessageContaining("must not be used after release()");
		assertThatIllegalStateException().isThrownBy(buffer::remoteAddress).withMessageContaining("was released");
	}

	@Test
	void anExhaustedClassFailsAfterTheTimeoutNamingTheClassLimitAndSetting() throws Exception {
		RegisteredMemoryPool pool = pool(4 << 20, new SizeClass(BufferRole.WRITE_CHUNK, 4096, 0, 2));
		pool.lease(BufferRole.WRITE_CHUNK, 4096);
		pool.lease(BufferRole.WRITE_CHUNK, 4096);
		long start = System.nanoTime();
		MemoryPoolExhaustedException failure = org.junit.jupiter.api.Assertions.assertThrows(
				MemoryPoolExhaustedException.class, () -> pool.lease(BufferRole.WRITE_CHUNK, 4000, Duration.ofMillis(50)));
		assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
		assertThat(failure.getMessage()).contains("No write-chunk-4KiB buffer (4 KiB each)",
				"for a lease of 4000 bytes after waiting 50 ms", "all 2 buffers of the class are leased",
				"at its limit of 2 buffers", "Raise SizeClass.maxBuffers of write-chunk-4KiB",
				"MemoryPoolConfig.leaseTimeout", "RegisteredMemoryPool.leaks()");
		assertThat(failure.sizeClass().name()).isEqualTo("write-chunk-4KiB");
		assertThat(failure.requestedLength()).isEqualTo(4000);
		MemoryPoolStats stats = pool.stats();
		assertThat(stats.exhaustionFailures()).isEqualTo(1);
		assertThat(stats.leaseWaits()).isEqualTo(1);
	}

	@Test
	void anExhaustedBudgetNamesMaxRegisteredBytesAndTheMemoryFreeElsewhere() throws Exception {
		RegisteredMemoryPool pool = pool(64 << 10, SizeClass.of(BufferRole.LOCAL_BULK, 16 << 10),
				SizeClass.of(BufferRole.WRITE_CHUNK, 16 << 10));
		// The first bulk lease grows the class by a whole slab: the entire 64 KiB budget.
		RegisteredBuffer bulk = pool.lease(BufferRole.LOCAL_BULK, 1);
		assertThat(pool.stats().registeredBytes()).isEqualTo(64 << 10);
		assertThat(pool.tryLease(BufferRole.WRITE_CHUNK, 1)).isNull();
		assertThatExceptionOfType(MemoryPoolExhaustedException.class)
			.isThrownBy(() -> pool.lease(BufferRole.WRITE_CHUNK, 1, Duration.ZERO))
			.withMessageContaining("No write-chunk-16KiB buffer (16 KiB each) was free for a lease of 1 bytes without waiting")
			.withMessageContaining("the pool has registered 64 KiB of its 64 KiB maxRegisteredBytes budget, too little for another 16 KiB buffer")
			.withMessageContaining("48 KiB is registered but free in other classes; cap them with SizeClass.maxBuffers")
			.withMessageContaining("Raise MemoryPoolConfig.maxRegisteredBytes (now 65536 bytes)");
		assertThat(pool.stats().exhaustionFailures()).isEqualTo(2);
		bulk.release();
	}

	@Test
	void totalsNeverExceedTheBudget() {
		long budget = 256 << 10;
		RegisteredMemoryPool pool = pool(budget, SizeClass.of(BufferRole.WRITE_CHUNK, 16 << 10),
				SizeClass.of(BufferRole.READ_CHUNK, 32 << 10), SizeClass.of(BufferRole.LOCAL_BULK, 64 << 10),
				SizeClass.of(BufferRole.SEND, 4 << 10));
		BufferRole[] roles = { BufferRole.WRITE_CHUNK, BufferRole.READ_CHUNK, BufferRole.LOCAL_BULK, BufferRole.SEND };
		List<RegisteredBuffer> leased = new ArrayList<>();
		Set<BufferRole> exhausted = new HashSet<>();
		for (int i = 0; exhausted.size() < roles.length; i++) {
			BufferRole role = roles[i % roles.length];
			RegisteredBuffer buffer = pool.tryLease(role, 1);
			if (buffer == null) {
				exhausted.add(role);
			}
			else {
				leased.add(buffer);
			}
			MemoryPoolStats stats = pool.stats();
			assertThat(stats.registeredBytes()).isLessThanOrEqualTo(budget);
			assertThat(stats.leasedBytes() + stats.freeBytes()).isEqualTo(stats.registeredBytes());
			assertThat((long) this.domain.pd.registeredRegionCount()).isEqualTo(stats.registeredRegions());
		}
		MemoryPoolStats stats = pool.stats();
		assertThat(stats.leasedBytes()).isEqualTo(leased.stream().mapToLong(RegisteredBuffer::length).sum());
		assertThat(stats.sizeClasses()).allSatisfy((c) -> assertThat(c.registeredBytes()).isEqualTo((long) c.buffers() * c.bufferSize()));
		// Nothing fits any more: what is left of the budget is smaller than every free class's buffer.
		assertThat(budget - stats.registeredBytes()).isLessThan(4 << 10);
		assertDisjointMemory(leased);
	}

	@Test
	void aWaitingLesseeIsWokenByARelease() throws Exception {
		RegisteredMemoryPool pool = pool(4 << 20, new SizeClass(BufferRole.WRITE_CHUNK, 4096, 1, 1));
		RegisteredBuffer held = pool.lease(BufferRole.WRITE_CHUNK, 4096);
		long address = held.address();
		AtomicReference<RegisteredBuffer> handedOver = new AtomicReference<>();
		CountDownLatch leased = new CountDownLatch(1);
		Thread waiter = new Thread(() -> {
			handedOver.set(LoopbackDomain.unchecked(() -> pool.lease(BufferRole.WRITE_CHUNK, 4096, Duration.ofSeconds(10))));
			leased.countDown();
		}, "waiting-lessee");
		waiter.start();
		awaitTimedWaiting(waiter);
		assertThat(leased.getCount()).isEqualTo(1);
		held.release();
		assertThat(leased.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(handedOver.get().address()).isEqualTo(address);
		assertThat(handedOver.get().isLeased()).isTrue();
		assertThat(pool.stats().leaseWaits()).isEqualTo(1);
		assertThat(pool.stats().exhaustionFailures()).isZero();
	}

	@Test
	void closingThePoolFailsWaitingLessees() throws Exception {
		RegisteredMemoryPool pool = pool(4 << 20, new SizeClass(BufferRole.SEND, 1024, 1, 1));
		pool.lease(BufferRole.SEND, 1);
		AtomicReference<Throwable> failure = new AtomicReference<>();
		CountDownLatch done = new CountDownLatch(1);
		Thread waiter = new Thread(() -> {
			try {
				pool.lease(BufferRole.SEND, 1, Duration.ofSeconds(10));
			}
			catch (Throwable ex) {
				failure.set(ex);
			}
			done.countDown();
		}, "waiting-lessee");
		waiter.start();
		awaitTimedWaiting(waiter);
		pool.close();
		assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(failure.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("pool is closed");
	}

	@Test
	void tryLeaseNeverWaits() throws Exception {
		RegisteredMemoryPool pool = track(new RegisteredMemoryPool(this.domain.pd,
				config(4 << 20, new SizeClass(BufferRole.SEND, 1024, 1, 1)).withLeaseTimeout(Duration.ofHours(1))));
		RegisteredBuffer only = pool.tryLease(BufferRole.SEND, 1024);
		assertThat(only).isNotNull();
		assertThat(pool.tryLease(BufferRole.SEND, 1024)).isNull();
		assertThat(pool.stats().leaseWaits()).isZero();
		assertThat(pool.stats().exhaustionFailures()).isEqualTo(1);
		only.release();
		assertThat(pool.tryLease(BufferRole.SEND, 1024)).isNotNull();
	}

	@Test
	void requestsNoClassCanHoldAreRejectedWithAdvice() {
		RegisteredMemoryPool pool = pool(4 << 20, SizeClass.of(BufferRole.WRITE_CHUNK, 16 << 10));
		assertThatIllegalArgumentException().isThrownBy(() -> pool.lease(BufferRole.WRITE_CHUNK, (16 << 10) + 1))
			.withMessageContaining("WRITE_CHUNK buffer of 16385 bytes is larger than the pool's largest WRITE_CHUNK class, write-chunk-16KiB")
			.withMessageContaining("split the transfer into several buffers");
		assertThatIllegalArgumentException().isThrownBy(() -> pool.tryLease(BufferRole.SEND, 1))
			.withMessageContaining("no size class for SEND buffers; add one to MemoryPoolConfig.sizeClasses");
		assertThatIllegalArgumentException().isThrownBy(() -> pool.tryLease(BufferRole.WRITE_CHUNK, -1))
			.withMessageContaining("-1 bytes");
	}

	@Test
	void preRegistrationUsesOneRegionPerSlabForInlineBuffersAndOnePerChunkBuffer() {
		RegisteredMemoryPool pool = pool(4 << 20, new SizeClass(BufferRole.RECEIVE, 1024, 100, SizeClass.UNLIMITED),
				new SizeClass(BufferRole.WRITE_CHUNK, 4096, 20, SizeClass.UNLIMITED));
		MemoryPoolStats stats = pool.stats();
		// 100 receive buffers are two slabs of at most 64; 20 chunk buffers are 20 regions.
		assertThat(this.domain.pd.registeredRegionCount()).isEqualTo(22);
		assertThat(stats.registrations()).isEqualTo(22);
		assertThat(stats.registeredBytes()).isEqualTo(100 * 1024 + 20 * 4096);
		assertThat(stats.sizeClass(BufferRole.RECEIVE, 1024).buffers()).isEqualTo(100);
		assertThat(stats.sizeClass(BufferRole.RECEIVE, 1024).free()).isEqualTo(100);
		assertThat(stats.leasedBytes()).isZero();
	}

	@Test
	void aClassGrowsBySlabOnDemand() throws Exception {
		RegisteredMemoryPool pool = pool(4 << 20, SizeClass.of(BufferRole.RECEIVE, 1024));
		assertThat(pool.stats().registrations()).isZero();
		pool.lease(BufferRole.RECEIVE, 1024);
		MemoryPoolStats stats = pool.stats();
		assertThat(stats.registrations()).isEqualTo(1);
		assertThat(stats.sizeClass("receive-1KiB").buffers()).isEqualTo(SLAB / 1024);
		assertThat(stats.sizeClass("receive-1KiB").leased()).isEqualTo(1);
		assertThat(stats.sizeClass("receive-1KiB").free()).isEqualTo(SLAB / 1024 - 1);
		assertThat(stats.freeBytes()).isEqualTo(SLAB - 1024);
	}

	@Test
	void buffersLargerThanASlabGetAnAllocationOfTheirOwn() throws Exception {
		RegisteredMemoryPool pool = pool(4 << 20, SizeClass.of(BufferRole.LOCAL_BULK, 256 << 10));
		RegisteredBuffer first = pool.lease(BufferRole.LOCAL_BULK, 200_000);
		RegisteredBuffer second = pool.lease(BufferRole.LOCAL_BULK, 200_000);
		assertThat(first.region().length()).isEqualTo(256 << 10);
		assertThat(first.offset()).isZero();
		assertThat(first.region()).isNotSameAs(second.region());
		assertThat(pool.stats().registeredBytes()).isEqualTo(512 << 10);
		assertDisjointMemory(List.of(first, second));
	}

	@Test
	void closeDeregistersEverythingAndRefusesFurtherLeases() throws Exception {
		RegisteredMemoryPool pool = new RegisteredMemoryPool(this.domain.pd, MemoryPoolConfig.defaults(1024)
			.withMaxRegisteredBytes(32 << 20));
		RegisteredBuffer receive = pool.lease(BufferRole.RECEIVE, 1024);
		pool.lease(BufferRole.WRITE_CHUNK, 100_000).release();
		pool.lease(BufferRole.READ_CHUNK, 4096).release();
		pool.lease(BufferRole.LOCAL_BULK, 2 << 20).release();
		assertThat(this.domain.pd.registeredRegionCount()).isGreaterThan(4);
		pool.close();
		assertThat(pool.isClosed()).isTrue();
		assertThat(this.domain.pd.registeredRegionCount()).isZero();
		MemoryPoolStats stats = pool.stats();
		assertThat(stats.registeredBytes()).isZero();
		assertThat(stats.deregistrations()).isEqualTo(stats.registrations());
		assertThatIllegalStateException().isThrownBy(() -> pool.lease(BufferRole.RECEIVE, 1))
			.withMessageContaining("pool is closed");
		assertThatIllegalStateException().isThrownBy(() -> pool.tryLease(BufferRole.RECEIVE, 1))
			.withMessageContaining("pool is closed");
		// A lessee that releases late is not punished; without tracking the leak was logged.
		receive.release();
		pool.close();
		this.domain.pd.close();
		assertThat(this.domain.pd.registeredRegionCount()).isZero();
	}

	@Test
	void closeWaitsForBuffersReleasedWhileItClosesAndStillReportsOnesNeverReleased() throws Exception {
		MemoryPoolConfig config = MemoryPoolConfig.defaults(1024).withMaxRegisteredBytes(32 << 20).withLeakTracking(true);
		RegisteredMemoryPool pool = new RegisteredMemoryPool(this.domain.pd, config);
		RegisteredBuffer flushed = pool.lease(BufferRole.RECEIVE, 1024);
		// Released as a flushed receive is: by a completion thread, after the pool began closing.
		Thread completions = new Thread(() -> {
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (!pool.isClosed() && System.nanoTime() < deadline) {
				Thread.onSpinWait();
			}
			flushed.release();
		}, "completions");
		completions.start();
		pool.close();
		completions.join(TimeUnit.SECONDS.toMillis(10));
		assertThat(pool.leaks()).isEmpty();
		assertThat(this.domain.pd.registeredRegionCount()).isZero();

		RegisteredMemoryPool leaking = new RegisteredMemoryPool(this.domain.pd, config);
		leaking.lease(BufferRole.RECEIVE, 1024);
		assertThatExceptionOfType(MemoryPoolLeakException.class).isThrownBy(leaking::close)
			.withMessageContaining("closed with 1 buffer still leased");
		assertThat(this.domain.pd.registeredRegionCount()).isZero();
	}

	@Test
	void aClosedProtectionDomainIsRefused() {
		this.domain.pd.close();
		assertThatIllegalStateException()
			.isThrownBy(() -> new RegisteredMemoryPool(this.domain.pd, config(1 << 20, SizeClass.of(BufferRole.SEND, 1024))))
			.withMessageContaining("protection domain is closed");
	}

	private void assertPeerRefused(RemoteAddress target, int length, AccessFlag right, RemoteAccessError error) {
		assertThatExceptionOfType(RemoteAccessException.class)
			.isThrownBy(() -> this.domain.checkPeerAccess(target, length, right))
			.satisfies((ex) -> assertThat(ex.error()).isEqualTo(error));
	}

	/**
	 * Fills each buffer with its own index and checks afterwards that no buffer's bytes
	 * were overwritten by another's: the buffers do not share memory.
	 */
	static void assertDisjointMemory(List<RegisteredBuffer> buffers) {
		for (int i = 0; i < buffers.size(); i++) {
			fill(buffers.get(i).buffer(), i);
		}
		for (int i = 0; i < buffers.size(); i++) {
			ByteBuffer view = buffers.get(i).buffer();
			long pattern = 0x0101_0101_0101_0101L * (i & 0xFF);
			for (int j = 0; j < view.capacity(); j++) {
				long found = (j + Long.BYTES <= view.capacity()) ? view.getLong(j) : view.get(j) & 0xFF;
				long expected = (j + Long.BYTES <= view.capacity()) ? pattern : i & 0xFF;
				if (found != expected) {
					throw new AssertionError("Buffer " + i + " " + buffers.get(i)
							+ " shares memory with another buffer near byte " + j);
				}
				j += (j + Long.BYTES <= view.capacity()) ? Long.BYTES - 1 : 0;
			}
		}
		List<long[]> ranges = new ArrayList<>();
		for (RegisteredBuffer buffer : buffers) {
			ranges.add(new long[] { buffer.address(), buffer.address() + buffer.length() });
		}
		ranges.sort((a, b) -> Long.compareUnsigned(a[0], b[0]));
		for (int i = 1; i < ranges.size(); i++) {
			assertThat(Long.compareUnsigned(ranges.get(i)[0], ranges.get(i - 1)[1])).as("address ranges overlap")
				.isGreaterThanOrEqualTo(0);
		}
	}

	private static void fill(ByteBuffer view, int index) {
		long pattern = 0x0101_0101_0101_0101L * (index & 0xFF);
		int j = 0;
		for (; j + Long.BYTES <= view.capacity(); j += Long.BYTES) {
			view.putLong(j, pattern);
		}
		for (; j < view.capacity(); j++) {
			view.put(j, (byte) index);
		}
	}

	static void awaitTimedWaiting(Thread thread) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (thread.getState() != Thread.State.TIMED_WAITING) {
			if (System.nanoTime() > deadline) {
				throw new AssertionError(thread.getName() + " did not start waiting; it is " + thread.getState());
			}
			Thread.onSpinWait();
		}
	}

	private static List<Integer> range(int from, int count, int step) {
		List<Integer> values = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			values.add(from + i * step);
		}
		return values;
	}

	private RegisteredMemoryPool pool(long budget, SizeClass... classes) {
		return track(new RegisteredMemoryPool(this.domain.pd, config(budget, classes)));
	}

	private RegisteredMemoryPool track(RegisteredMemoryPool pool) {
		this.pools.add(pool);
		return pool;
	}

	static MemoryPoolConfig config(long budget, SizeClass... classes) {
		return new MemoryPoolConfig(List.of(classes), SLAB, budget, Duration.ofSeconds(5), false, true, budget);
	}

}

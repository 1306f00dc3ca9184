package io.rpcrdma.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * A chunk buffer whose STag retirement completes later (a memory window's local invalidation,
 * completed on the provider's completion thread) goes back to its pool only then: no lessee can
 * get memory a peer may still reach (RFC 8166 §8.1).
 */
class DeferredRetirementTest {

	private final LoopbackDomain domain = new LoopbackDomain();

	private final DeferringDomain deferring = new DeferringDomain(this.domain.pd);

	private RegisteredMemoryPool pool;

	@AfterEach
	void close() {
		if (this.pool != null) {
			this.pool.close();
		}
		this.domain.close();
	}

	@Test
	void aChunkBufferIsLeasedAgainOnlyOnceItsStagIsRetiredAndComesBackScrubbed() throws Exception {
		this.pool = new RegisteredMemoryPool(this.deferring,
				RegisteredMemoryPoolTest.config(4 << 20, new SizeClass(BufferRole.READ_CHUNK, 4096, 1, 1))
					.withScrubReadChunks(true));
		RegisteredBuffer buffer = this.pool.lease(BufferRole.READ_CHUNK, 4096);
		buffer.buffer().put(0, (byte) 0x5A);
		buffer.release();
		assertThat(this.deferring.pending).as("retirement asked for").hasSize(1);
		assertThat(this.pool.tryLease(BufferRole.READ_CHUNK, 4096)).as("not back before its STag is dead").isNull();
		this.deferring.completeRetirements();
		RegisteredBuffer again = this.pool.tryLease(BufferRole.READ_CHUNK, 4096);
		assertThat(again).isNotNull();
		assertThat(again.buffer().get(0)).as("scrubbed").isZero();
		assertThat(this.pool.stats().stagRotations()).isEqualTo(1);
	}

	@Test
	void aBufferWhoseRetirementCompletesAfterThePoolClosedIsDropped() throws Exception {
		this.pool = new RegisteredMemoryPool(this.deferring,
				RegisteredMemoryPoolTest.config(4 << 20, new SizeClass(BufferRole.WRITE_CHUNK, 4096, 1, 1)));
		this.pool.lease(BufferRole.WRITE_CHUNK, 4096).release();
		this.pool.close();
		this.deferring.completeRetirements();
		assertThat(this.pool.stats().sizeClass("write-chunk-4KiB").free()).isZero();
	}

	/** A real loopback domain whose regions complete their retirement only when told. */
	private static final class DeferringDomain implements ProtectionDomain {

		private final ProtectionDomain delegate;

		final List<Runnable> pending = new ArrayList<>();

		DeferringDomain(ProtectionDomain delegate) {
			this.delegate = delegate;
		}

		void completeRetirements() {
			List<Runnable> due = new ArrayList<>(this.pending);
			this.pending.clear();
			due.forEach(Runnable::run);
		}

		@Override
		public RdmaProvider provider() {
			return this.delegate.provider();
		}

		@Override
		public MemoryRegion registerMemory(ByteBuffer directBuffer, Set<AccessFlag> access) {
			return new DeferringRegion(this.delegate.registerMemory(directBuffer, access), this.pending);
		}

		@Override
		public int registeredRegionCount() {
			return this.delegate.registeredRegionCount();
		}

		@Override
		public boolean isClosed() {
			return this.delegate.isClosed();
		}

		@Override
		public void close() {
			this.delegate.close();
		}

	}

	private record DeferringRegion(MemoryRegion delegate, List<Runnable> pending) implements MemoryRegion {

		@Override
		public void retire(Runnable whenRetired) {
			this.pending.add(() -> {
				if (this.delegate.isRegistered()) { // a window's completion after close kills nothing more
					this.delegate.reregister();
				}
				whenRetired.run();
			});
		}

		@Override
		public int stag() {
			return this.delegate.stag();
		}

		@Override
		public int lkey() {
			return this.delegate.lkey();
		}

		@Override
		public long address() {
			return this.delegate.address();
		}

		@Override
		public int length() {
			return this.delegate.length();
		}

		@Override
		public Set<AccessFlag> access() {
			return this.delegate.access();
		}

		@Override
		public ByteBuffer buffer() {
			return this.delegate.buffer();
		}

		@Override
		public ProtectionDomain protectionDomain() {
			return this.delegate.protectionDomain();
		}

		@Override
		public boolean isValid() {
			return this.delegate.isValid();
		}

		@Override
		public boolean isRegistered() {
			return this.delegate.isRegistered();
		}

		@Override
		public void invalidate() {
			this.delegate.invalidate();
		}

		@Override
		public int reregister() {
			return this.delegate.reregister();
		}

		@Override
		public void offerTo(QueuePair queuePair) {
			this.delegate.offerTo(queuePair);
		}

		@Override
		public void deregister() {
			this.delegate.deregister();
		}

	}

}

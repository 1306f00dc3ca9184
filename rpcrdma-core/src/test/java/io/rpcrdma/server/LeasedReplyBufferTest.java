package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.memory.SizeClassStats;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * Large reply buffers come from the registered pool and go back to it; small ones, and large
 * ones when the pool has none free, come from the heap.
 */
class LeasedReplyBufferTest {

	private final RdmaProvider provider = RdmaProviders.open("loopback");

	private final RegisteredMemoryPool pool = new RegisteredMemoryPool(this.provider.allocateProtectionDomain(),
			MemoryPoolConfig.defaults(4096).withLeakTracking(true));

	@AfterEach
	void close() {
		this.pool.close();
		this.provider.close();
	}

	private long localBulkLeased() {
		return this.pool.stats().sizeClasses().stream()
			.filter((stats) -> stats.role() == BufferRole.LOCAL_BULK)
			.mapToLong(SizeClassStats::leased)
			.sum();
	}

	@Test
	void aLargeReplyBufferIsLeasedAndReturnedOnRelease() {
		ReplyBufferSupplier buffers = LeasedReplyBuffer.of(this.pool, 1 << 20);
		ByteBuffer buffer = buffers.acquire(7);
		assertThat(buffer.isDirect()).isTrue();
		assertThat(buffer.capacity()).isEqualTo(1 << 20);
		assertThat(localBulkLeased()).isEqualTo(1);
		buffers.release(buffer);
		buffers.release(buffer);
		assertThat(localBulkLeased()).isZero();
	}

	@Test
	void aSmallReplyBufferComesFromTheHeap() {
		ByteBuffer buffer = LeasedReplyBuffer.of(this.pool, 4096).acquire(7);
		assertThat(buffer.isDirect()).isFalse();
		assertThat(buffer.capacity()).isEqualTo(4096);
		assertThat(localBulkLeased()).isZero();
	}

	@Test
	void aReplyLargerThanAnyPooledBufferComesFromTheHeap() {
		int beyond = this.pool.largestBufferSize(BufferRole.LOCAL_BULK) + 1;
		ReplyBufferSupplier buffers = LeasedReplyBuffer.of(this.pool, beyond);
		ByteBuffer buffer = buffers.acquire(7);
		assertThat(buffer.isDirect()).isFalse();
		assertThat(buffer.capacity()).isEqualTo(beyond);
		buffers.release(buffer);
		assertThat(localBulkLeased()).isZero();
	}

}

package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

class ReplyBufferPoolTest {

	@Test
	void releasedBufferIsReusedWithItsLimitAtTheAskedCapacity() {
		ReplyBufferPool pool = new ReplyBufferPool(1 << 20);
		ByteBuffer first = pool.acquire(5000);
		first.position(123);
		pool.release(first);

		ByteBuffer second = pool.acquire(4500);

		assertThat(second).isSameAs(first);
		assertThat(second.position()).isZero();
		assertThat(second.limit()).isEqualTo(4500);
		assertThat(pool.retainedBytes()).isZero();
	}

	@Test
	void aKeptBufferSmallerThanAskedIsNotHandedOut() {
		ReplyBufferPool pool = new ReplyBufferPool(1 << 20);
		ByteBuffer small = pool.acquire(5000);
		pool.release(small);

		ByteBuffer larger = pool.acquire(8000);

		assertThat(larger).isNotSameAs(small);
		assertThat(larger.capacity()).isGreaterThanOrEqualTo(8000);
		assertThat(larger.limit()).isEqualTo(8000);
	}

	@Test
	void keepsNoMoreThanItsByteBound() {
		ReplyBufferPool pool = new ReplyBufferPool(3 << 20);
		ByteBuffer a = pool.acquire(1 << 20);
		ByteBuffer b = pool.acquire(1 << 20);
		ByteBuffer c = pool.acquire(1 << 20);
		ByteBuffer d = pool.acquire(1 << 20);
		pool.release(a);
		pool.release(b);
		pool.release(c);
		pool.release(d);

		assertThat(pool.retainedBytes()).isEqualTo(3L << 20);
		// Four 1 MiB buffers of one class: the class bound (4 MiB) allows them, the total does not.
		assertThat(oneOf(pool.acquire(1 << 20), a, b, c)).isTrue();
	}

	@Test
	void keepsAtLeastTwoOfTheLargestReplies() {
		ReplyBufferPool pool = new ReplyBufferPool(RpcServer.MAX_RETAINED_REPLY_BYTES);
		ByteBuffer a = pool.acquire(16 << 20);
		ByteBuffer b = pool.acquire(16 << 20);
		ByteBuffer c = pool.acquire(16 << 20);
		pool.release(a);
		pool.release(b);
		pool.release(c);

		assertThat(pool.retainedBytes()).isEqualTo(32L << 20);
		assertThat(oneOf(pool.acquire(16 << 20), a, b)).isTrue();
		assertThat(oneOf(pool.acquire(16 << 20), a, b)).isTrue();
		assertThat(oneOf(pool.acquire(16 << 20), a, b, c)).isFalse();
	}

	@Test
	void classesArePowersOfTwo() {
		assertThat(ReplyBufferPool.classOf(1)).isZero();
		assertThat(ReplyBufferPool.classOf(4096)).isEqualTo(12);
		assertThat(ReplyBufferPool.classOf(4097)).isEqualTo(13);
		assertThat(ReplyBufferPool.classOf(RpcServer.MAX_REPLY_BUFFER)).isEqualTo(27);
	}

	/** ByteBuffer.equals compares content: identity is what reuse means. */
	private static boolean oneOf(ByteBuffer actual, ByteBuffer... candidates) {
		for (ByteBuffer candidate : candidates) {
			if (candidate == actual) {
				return true;
			}
		}
		return false;
	}

}

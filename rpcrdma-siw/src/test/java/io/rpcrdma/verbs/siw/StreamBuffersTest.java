package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The provider's free stream buffers follow the demand: what connections give back between
 * their calls is there for the next borrower, however many connections come and go, and what
 * no borrower took for a whole window goes, down to the floor.
 */
class StreamBuffersTest {

	private static final int FLOOR = 8;

	private static final long START = 1_000L;

	private final StreamBuffers buffers = new StreamBuffers(FLOOR, START);

	@Test
	void buffersGivenBackBetweenCallsAreBorrowedAgainRatherThanAllocated() {
		List<ByteBuffer> taken = take(100);
		assertThat(this.buffers.allocated()).isEqualTo(100);
		// Connections calling every few hundred milliseconds give their buffers back between
		// calls and borrow again at the next: one after the other, and all at once.
		for (int round = 0; round < 3; round++) {
			for (int i = 0; i < taken.size(); i++) {
				this.buffers.give(taken.get(i));
				taken.set(i, this.buffers.take());
			}
			giveAll(taken);
			taken = take(100);
		}
		assertThat(this.buffers.allocated()).as("buffers allocated after the first 100").isEqualTo(100);
		assertThat(this.buffers.lent()).isEqualTo(100);
	}

	@Test
	void buffersFreeForAWholeWindowGoDownToTheFloor() {
		giveAll(take(100));
		int kept = this.buffers.free();
		assertThat(kept).isEqualTo(100);
		// All kept: with those lent, no more than were lent at once. The first trim ends the
		// window in which they were lent: none was free all of it.
		assertThat(this.buffers.trim(START + StreamBuffers.TRIM_NANOS)).as("more free than the floor").isTrue();
		assertThat(this.buffers.free()).isEqualTo(kept);
		// Before the next window ends, nothing goes, however often the I/O threads tick.
		this.buffers.trim(START + StreamBuffers.TRIM_NANOS + StreamBuffers.TRIM_NANOS / 2);
		assertThat(this.buffers.free()).isEqualTo(kept);
		// Unused for the whole next window: down to the floor.
		assertThat(this.buffers.trim(START + 2 * StreamBuffers.TRIM_NANOS)).as("more free than the floor").isFalse();
		assertThat(this.buffers.free()).isEqualTo(FLOOR);
	}

	@Test
	void buffersBorrowedDuringAWindowStay() {
		giveAll(take(40));
		this.buffers.trim(START + StreamBuffers.TRIM_NANOS);
		int kept = this.buffers.free();
		// All but two borrowed and given back during the window: only two stayed unused.
		giveAll(take(kept - 2));
		this.buffers.trim(START + 2 * StreamBuffers.TRIM_NANOS);
		assertThat(this.buffers.free()).isEqualTo(Math.max(FLOOR, kept - 2));
		// A window in which the free ones ran out: none goes.
		List<ByteBuffer> all = take(this.buffers.free() + 5);
		giveAll(all.subList(0, all.size() - 5));
		int before = this.buffers.free();
		this.buffers.trim(START + 3 * StreamBuffers.TRIM_NANOS);
		assertThat(this.buffers.free()).isEqualTo(before);
	}

	private List<ByteBuffer> take(int count) {
		List<ByteBuffer> taken = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			ByteBuffer buffer = this.buffers.take();
			assertThat(buffer.position()).isZero();
			assertThat(buffer.capacity()).isEqualTo(StreamBuffers.SIZE);
			taken.add(buffer);
		}
		return taken;
	}

	private void giveAll(List<ByteBuffer> taken) {
		taken.forEach(this.buffers::give);
	}

}

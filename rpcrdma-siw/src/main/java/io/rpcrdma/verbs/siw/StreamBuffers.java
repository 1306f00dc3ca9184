package io.rpcrdma.verbs.siw;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.rpcrdma.verbs.siw.wire.Mpa;

/**
 * A provider's stream buffers, lent to connections while they transmit or receive: a
 * connection idle for one look of its I/O thread gives its transmit buffer back
 * ({@link RdmapTransmitter#look()}), and its receive buffer unless part of an FPDU waits in
 * it ({@link RdmapReceiver#look()}), so that idle connections hold none of the
 * {@value #SIZE} bytes each.
 * <p>
 * The free buffers follow the demand: a returned buffer is kept while the buffers lent and
 * free are no more than were lent at once during this trim window or the last (and always up
 * to {@code floor} free), and the I/O threads' ticks ({@link #trim(long)}) let go of those
 * that stayed free for a whole {@link #TRIM_NANOS window}. So connections
 * that call every few hundred milliseconds, each giving its buffers back between calls,
 * borrow the ones another just gave back instead of allocating two direct buffers per call
 * (whose memory only a garbage collection gives back), and a burst of connections leaves no
 * more than {@code floor} free buffers a few seconds after it.
 */
final class StreamBuffers {

	/**
	 * Room for four maximum FPDUs: what one gathering write frames ({@link RdmapTransmitter}),
	 * and what the receive path reads at once.
	 */
	static final int SIZE = 4 * Mpa.fpduLength(Mpa.MAX_ULPDU_LENGTH);

	/** How long a free buffer may stay unused before {@link #trim(long)} lets it go. */
	static final long TRIM_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final ConcurrentLinkedQueue<ByteBuffer> free = new ConcurrentLinkedQueue<>();

	private final AtomicInteger freeCount = new AtomicInteger();

	/** The fewest buffers free since the last trim: those stayed unused all the window. */
	private final AtomicInteger lowWater = new AtomicInteger();

	private final AtomicInteger lent = new AtomicInteger();

	/** The most lent at once during this window. */
	private final AtomicInteger peak = new AtomicInteger();

	/** The most lent at once during the last window. */
	private volatile int lastPeak;

	private final AtomicLong trimmedAt;

	private final LongAdder allocated = new LongAdder();

	private final int floor;

	/**
	 * @param floor free buffers kept however little they are used
	 * @param now the time the first trim window starts, in {@link System#nanoTime()}'s terms
	 */
	StreamBuffers(int floor, long now) {
		this.floor = floor;
		this.trimmedAt = new AtomicLong(now);
	}

	/** @return an empty buffer of {@link #SIZE} bytes */
	ByteBuffer take() {
		this.peak.accumulateAndGet(this.lent.incrementAndGet(), Math::max);
		ByteBuffer buffer = this.free.poll();
		if (buffer == null) {
			this.lowWater.set(0);
			this.allocated.increment();
			return ByteBuffer.allocateDirect(SIZE);
		}
		int left = this.freeCount.decrementAndGet();
		this.lowWater.accumulateAndGet(left, Math::min);
		return buffer.clear();
	}

	/** Gives back a buffer that holds nothing left to write. */
	void give(ByteBuffer buffer) {
		int stillLent = this.lent.decrementAndGet();
		int free = this.freeCount.incrementAndGet();
		if (free <= this.floor || stillLent + free <= Math.max(this.peak.get(), this.lastPeak)) {
			this.free.add(buffer);
		}
		else {
			// Left to the garbage collector, which frees its memory.
			this.freeCount.decrementAndGet();
		}
	}

	/**
	 * Lets go of the free buffers no borrower took during the window that ended, down to
	 * {@code floor}; at most once a {@link #TRIM_NANOS window}, whichever I/O thread ticks.
	 * @param now {@link System#nanoTime()}
	 * @return whether more than {@code floor} buffers are still free, for a later trim
	 */
	boolean trim(long now) {
		long last = this.trimmedAt.get();
		if (now - last < TRIM_NANOS || !this.trimmedAt.compareAndSet(last, now)) {
			return this.freeCount.get() > this.floor;
		}
		int unused = Math.min(this.lowWater.get(), this.freeCount.get() - this.floor);
		for (; unused > 0; unused--) {
			if (this.free.poll() == null) {
				break;
			}
			this.freeCount.decrementAndGet();
		}
		int left = this.freeCount.get();
		this.lowWater.set(left);
		this.lastPeak = this.peak.getAndSet(this.lent.get());
		return left > this.floor;
	}

	/** @return the free buffers kept */
	int free() {
		return this.freeCount.get();
	}

	/** @return the buffers lent now */
	int lent() {
		return this.lent.get();
	}

	/** @return the buffers allocated so far, for tests */
	long allocated() {
		return this.allocated.sum();
	}

}

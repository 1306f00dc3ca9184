package io.rpcrdma.verbs.siw;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import io.rpcrdma.verbs.siw.wire.Mpa;

/**
 * A provider's stream buffers, lent to connections while they transmit or receive: a
 * connection idle for one look of its I/O thread gives its transmit buffer back
 * ({@link RdmapTransmitter#look()}), and its receive buffer unless part of an FPDU waits in
 * it ({@link RdmapReceiver#look()}), so that idle connections hold none of the
 * {@value #SIZE} bytes each. At most {@code keep} free
 * buffers are kept for the next borrower; beyond that a returned buffer is left to the
 * garbage collector.
 */
final class StreamBuffers {

	/**
	 * Room for four maximum FPDUs: what one gathering write frames ({@link RdmapTransmitter}),
	 * and what the receive path reads at once.
	 */
	static final int SIZE = 4 * Mpa.fpduLength(Mpa.MAX_ULPDU_LENGTH);

	private final ConcurrentLinkedQueue<ByteBuffer> free = new ConcurrentLinkedQueue<>();

	private final AtomicInteger freeCount = new AtomicInteger();

	private final int keep;

	StreamBuffers(int keep) {
		this.keep = keep;
	}

	/** @return an empty buffer of {@link #SIZE} bytes */
	ByteBuffer take() {
		ByteBuffer buffer = this.free.poll();
		if (buffer == null) {
			return ByteBuffer.allocateDirect(SIZE);
		}
		this.freeCount.decrementAndGet();
		return buffer.clear();
	}

	/** Gives back a buffer that holds nothing left to write. */
	void give(ByteBuffer buffer) {
		if (this.freeCount.incrementAndGet() <= this.keep) {
			this.free.add(buffer);
		}
		else {
			this.freeCount.decrementAndGet();
		}
	}

	/** @return the free buffers kept */
	int free() {
		return this.freeCount.get();
	}

}

package io.rpcrdma.verbs.siw;

import java.nio.ByteBuffer;

/**
 * RDMA Read Requests received and checked, waiting for the transmitter to send their Read
 * Responses (the IRD side of RFC 5040 §5.1): at most the IRD this end advertised in the MPA
 * exchange (RFC 6581). The receiver adds without blocking, so it never waits for the
 * transmitter; fixed arrays, no allocation.
 */
final class InboundReadQueue {

	private final ByteBuffer[] memory;

	private final int[] offset;

	private final int[] length;

	private final int[] sinkStag;

	private final long[] sinkOffset;

	private int head;

	private int count;

	InboundReadQueue(int capacity) {
		this.memory = new ByteBuffer[capacity];
		this.offset = new int[capacity];
		this.length = new int[capacity];
		this.sinkStag = new int[capacity];
		this.sinkOffset = new long[capacity];
	}

	/**
	 * Queues a Read Response.
	 * @return {@code false} if the queue is full: the peer exceeded our IRD
	 */
	synchronized boolean add(ByteBuffer source, int sourceOffset, int bytes, int stag, long taggedOffset) {
		if (this.count == this.memory.length) {
			return false;
		}
		int slot = (this.head + this.count) % this.memory.length;
		this.memory[slot] = source;
		this.offset[slot] = sourceOffset;
		this.length[slot] = bytes;
		this.sinkStag[slot] = stag;
		this.sinkOffset[slot] = taggedOffset;
		this.count++;
		return true;
	}

	synchronized boolean isEmpty() {
		return this.count == 0;
	}

	synchronized int headLength() {
		return this.length[this.head];
	}

	synchronized ByteBuffer headMemory() {
		return this.memory[this.head];
	}

	synchronized int headOffset() {
		return this.offset[this.head];
	}

	synchronized int headSinkStag() {
		return this.sinkStag[this.head];
	}

	synchronized long headSinkOffset() {
		return this.sinkOffset[this.head];
	}

	synchronized void removeHead() {
		this.memory[this.head] = null;
		this.head = (this.head + 1) % this.memory.length;
		this.count--;
	}

	synchronized void clear() {
		while (this.count > 0) {
			removeHead();
		}
	}

}

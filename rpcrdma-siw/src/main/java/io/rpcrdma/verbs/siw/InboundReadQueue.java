package io.rpcrdma.verbs.siw;

import java.nio.ByteBuffer;

import io.rpcrdma.verbs.soft.SoftwareMemoryRegion;

/**
 * RDMA Read Requests received and checked, waiting for the transmitter to send their Read
 * Responses (the IRD side of RFC 5040 §5.1): at most the IRD this end advertised in the MPA
 * exchange (RFC 6581). The receiver adds without blocking, so it never waits for the
 * transmitter; fixed arrays, no allocation.
 */
final class InboundReadQueue {

	private final SoftwareMemoryRegion[] region;

	private final int[] sourceStag;

	private final int[] offset;

	private final int[] length;

	private final int[] sinkStag;

	private final long[] sinkOffset;

	private int head;

	private int count;

	InboundReadQueue(int capacity) {
		this.region = new SoftwareMemoryRegion[capacity];
		this.sourceStag = new int[capacity];
		this.offset = new int[capacity];
		this.length = new int[capacity];
		this.sinkStag = new int[capacity];
		this.sinkOffset = new long[capacity];
	}

	/**
	 * Queues a Read Response.
	 * @param source the region the data comes from, or {@code null} for a zero-length Read
	 * @param stag the STag the peer named it by, checked again as the data is sent
	 * @return {@code false} if the queue is full: the peer exceeded our IRD
	 */
	synchronized boolean add(SoftwareMemoryRegion source, int stag, int sourceOffset, int bytes, int sinkStag,
			long taggedOffset) {
		if (this.count == this.region.length) {
			return false;
		}
		int slot = (this.head + this.count) % this.region.length;
		this.region[slot] = source;
		this.sourceStag[slot] = stag;
		this.offset[slot] = sourceOffset;
		this.length[slot] = bytes;
		this.sinkStag[slot] = sinkStag;
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

	synchronized SoftwareMemoryRegion headRegion() {
		return this.region[this.head];
	}

	synchronized int headSourceStag() {
		return this.sourceStag[this.head];
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
		this.region[this.head] = null;
		this.head = (this.head + 1) % this.region.length;
		this.count--;
	}

	synchronized void clear() {
		while (this.count > 0) {
			removeHead();
		}
	}

}

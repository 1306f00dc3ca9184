package io.rpcrdma.verbs.siw;

import java.util.List;

import io.rpcrdma.verbs.ScatterGatherEntry;

/**
 * The RDMA Read Requests this end has sent and whose Read Responses have not all arrived
 * (the ORD side of RFC 5040 §5.1): at most the peer's IRD at once. Responses come back in
 * request order (RFC 5040 §5.5), so only the head receives data. An entry is a Read work
 * request, or a zero-length {@linkplain #NUDGE nudge} Read. Fixed arrays, no allocation (but for a sink list longer than any before in its
 * slot); the transmitter adds, the receiver removes.
 * <p>
 * Each entry keeps the local keys its sink's regions had when the Read Request went out, as
 * an RNIC's work queue element keeps its SGEs' lkeys: a Read Response may be placed only
 * while each region still has that key, valid (RFC 5041 §7, checked for every segment).
 */
final class OutboundReadQueue {

	/**
	 * The sequence number of a zero-length Read Request that only nudged a silent peer
	 * (RdmapTransmitter#nudgeTimerFired): no work request waits for its Response.
	 */
	static final long NUDGE = -1;

	private final long[] seq;

	private final int[] sinkStag;

	private final long[] sinkOffset;

	private final int[] length;

	private final Object[] sgList;

	private final int[][] sinkKeys;

	private int head;

	private int count;

	OutboundReadQueue(int capacity) {
		this.seq = new long[capacity];
		this.sinkStag = new int[capacity];
		this.sinkOffset = new long[capacity];
		this.length = new int[capacity];
		this.sgList = new Object[capacity];
		this.sinkKeys = new int[capacity][];
	}

	synchronized boolean isFull() {
		return this.count == this.seq.length;
	}

	synchronized boolean isEmpty() {
		return this.count == 0;
	}

	synchronized void add(long workSeq, int stag, long taggedOffset, int bytes,
			List<ScatterGatherEntry> sink) {
		int slot = (this.head + this.count) % this.seq.length;
		this.seq[slot] = workSeq;
		this.sinkStag[slot] = stag;
		this.sinkOffset[slot] = taggedOffset;
		this.length[slot] = bytes;
		this.sgList[slot] = sink;
		int[] keys = this.sinkKeys[slot];
		if (keys == null || keys.length < sink.size()) {
			keys = new int[Math.max(1, sink.size())];
			this.sinkKeys[slot] = keys;
		}
		for (int i = 0; i < sink.size(); i++) {
			keys[i] = sink.get(i).lkey();
		}
		this.count++;
	}

	synchronized long headSeq() {
		return this.seq[this.head];
	}

	synchronized int headSinkStag() {
		return this.sinkStag[this.head];
	}

	synchronized long headSinkOffset() {
		return this.sinkOffset[this.head];
	}

	synchronized int headLength() {
		return this.length[this.head];
	}

	@SuppressWarnings("unchecked")
	synchronized List<ScatterGatherEntry> headSgList() {
		return (List<ScatterGatherEntry>) this.sgList[this.head];
	}

	/**
	 * @return the lkeys of the head's sink entries when its Read Request went out, index by
	 * index (the array may be longer than the list)
	 */
	synchronized int[] headSinkKeys() {
		return this.sinkKeys[this.head];
	}

	synchronized void removeHead() {
		this.sgList[this.head] = null;
		this.head = (this.head + 1) % this.seq.length;
		this.count--;
	}

	synchronized void clear() {
		while (this.count > 0) {
			removeHead();
		}
	}

}

package io.rpcrdma.demo.workload;

import java.util.Arrays;

/**
 * Latencies of one thread's calls of one kind, in nanoseconds: a growable array, written by
 * one thread and read once the workload is over.
 */
final class LatencyLog {

	private long[] nanos = new long[256];

	private int count;

	private long bytes;

	void record(long latencyNanos, long movedBytes) {
		if (this.count == this.nanos.length) {
			this.nanos = Arrays.copyOf(this.nanos, this.count * 2);
		}
		this.nanos[this.count++] = latencyNanos;
		this.bytes += movedBytes;
	}

	int count() {
		return this.count;
	}

	long bytes() {
		return this.bytes;
	}

	long[] values() {
		return Arrays.copyOf(this.nanos, this.count);
	}

}

package io.rpcrdma.verbs.disni;

import io.rpcrdma.verbs.ReceiveWorkRequest;

/**
 * The provider's record of a queue pair's outstanding receives, in posting order; receives
 * complete in that order, successful or flushed. Until the adapter's queue pair exists
 * (it is created when connecting), the records are also the receives still to be handed
 * to it. Not thread-safe: the queue pair guards it.
 */
final class ReceiveQueueRecords {

	private final ReceiveWorkRequest[] requests;

	private int head;

	private int count;

	ReceiveQueueRecords(int capacity) {
		this.requests = new ReceiveWorkRequest[capacity];
	}

	int capacity() {
		return this.requests.length;
	}

	int size() {
		return this.count;
	}

	boolean isFull() {
		return this.count == this.requests.length;
	}

	void add(ReceiveWorkRequest request) {
		if (isFull()) {
			throw new IllegalStateException("receive queue records are full");
		}
		this.requests[index(this.count)] = request;
		this.count++;
	}

	void removeNewest() {
		if (this.count > 0) {
			this.count--;
			this.requests[index(this.count)] = null;
		}
	}

	/**
	 * The record at a position, oldest first.
	 * @param position 0 for the oldest
	 * @return the request
	 */
	ReceiveWorkRequest get(int position) {
		return this.requests[index(position)];
	}

	/**
	 * Retires the oldest record, which a completion just reported.
	 * @return the request, or {@code null} if none is outstanding
	 */
	ReceiveWorkRequest retireOldest() {
		if (this.count == 0) {
			return null;
		}
		ReceiveWorkRequest request = this.requests[this.head];
		this.requests[this.head] = null;
		this.head = index(1);
		this.count--;
		return request;
	}

	private int index(int offset) {
		int i = this.head + offset;
		return (i >= this.requests.length) ? i - this.requests.length : i;
	}

}

package io.rpcrdma.verbs.disni;

import io.rpcrdma.verbs.SendOpcode;

/**
 * The provider's record of a queue pair's outstanding send-queue work requests, in
 * posting order: what the caller posted under which slot, so that completions can be
 * reported with the caller's wr_id and opcode, and so that the send queue depth is
 * enforced exactly (adapters round queue sizes up).
 * <p>
 * An unsignaled work request that succeeds produces no completion; verbs executes a send
 * queue in order, so a completion for a later one retires it too. Not thread-safe: the
 * queue pair guards it.
 */
final class SendQueueRecords {

	private final long[] wrIds;

	private final SendOpcode[] opcodes;

	private final int[] lengths;

	private final boolean[] signaled;

	private int head;

	private int count;

	SendQueueRecords(int capacity) {
		this.wrIds = new long[capacity];
		this.opcodes = new SendOpcode[capacity];
		this.lengths = new int[capacity];
		this.signaled = new boolean[capacity];
	}

	int capacity() {
		return this.wrIds.length;
	}

	int size() {
		return this.count;
	}

	boolean isFull() {
		return this.count == this.wrIds.length;
	}

	/**
	 * Records a work request about to be posted.
	 * @return its slot
	 */
	int add(long wrId, SendOpcode opcode, int length, boolean isSignaled) {
		if (isFull()) {
			throw new IllegalStateException("send queue records are full");
		}
		int slot = index(this.count);
		this.wrIds[slot] = wrId;
		this.opcodes[slot] = opcode;
		this.lengths[slot] = length;
		this.signaled[slot] = isSignaled;
		this.count++;
		return slot;
	}

	/**
	 * Forgets the newest record, whose posting failed.
	 */
	void removeNewest() {
		if (this.count > 0) {
			this.count--;
			this.opcodes[index(this.count)] = null;
		}
	}

	/**
	 * Whether a slot holds an outstanding work request.
	 * @param slot the slot
	 * @return {@code true} if a completion for it is expected
	 */
	boolean isOutstanding(int slot) {
		if (slot < 0 || slot >= this.wrIds.length) {
			return false;
		}
		int distance = slot - this.head;
		if (distance < 0) {
			distance += this.wrIds.length;
		}
		return distance < this.count;
	}

	long wrId(int slot) {
		return this.wrIds[slot];
	}

	SendOpcode opcode(int slot) {
		return this.opcodes[slot];
	}

	int length(int slot) {
		return this.lengths[slot];
	}

	boolean signaled(int slot) {
		return this.signaled[slot];
	}

	/**
	 * Retires every record up to and including the completed slot.
	 * @param slot the slot of a completion
	 * @return how many records were retired (0 if the slot was not outstanding)
	 */
	int retireThrough(int slot) {
		if (!isOutstanding(slot)) {
			return 0;
		}
		int distance = slot - this.head;
		if (distance < 0) {
			distance += this.wrIds.length;
		}
		int retired = distance + 1;
		for (int i = 0; i < retired; i++) {
			this.opcodes[index(i)] = null;
		}
		this.head = index(retired);
		this.count -= retired;
		return retired;
	}

	/**
	 * The oldest outstanding slot.
	 * @return the slot, or -1 if none is outstanding
	 */
	int oldest() {
		return (this.count == 0) ? -1 : this.head;
	}

	private int index(int offset) {
		int i = this.head + offset;
		return (i >= this.wrIds.length) ? i - this.wrIds.length : i;
	}

}

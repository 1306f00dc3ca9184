package io.rpcrdma.verbs.disni;

import java.util.ArrayList;
import java.util.List;

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
 * <p>
 * Besides the caller's work requests it records the provider's own memory-window work
 * ({@link WindowWork}), in a share of its own so that neither can crowd out the other.
 */
final class SendQueueRecords {

	private final long[] wrIds;

	private final SendOpcode[] opcodes;

	private final int[] lengths;

	private final boolean[] signaled;

	/** The provider's own work of a slot, {@code null} for the caller's. */
	private final WindowWork[] windowWork;

	/** The caller's share of the slots. */
	private final int capacity;

	private final int windowCapacity;

	/** Window work retired by a later completion instead of its own: told by the queue pair. */
	private final List<WindowWork> orphans = new ArrayList<>(0);

	private int head;

	private int count;

	private int windowCount;

	SendQueueRecords(int capacity) {
		this(capacity, 0);
	}

	/**
	 * @param capacity the caller's work requests
	 * @param windowCapacity the provider's memory-window work requests
	 */
	SendQueueRecords(int capacity, int windowCapacity) {
		int slots = capacity + windowCapacity;
		this.capacity = capacity;
		this.windowCapacity = windowCapacity;
		this.wrIds = new long[slots];
		this.opcodes = new SendOpcode[slots];
		this.lengths = new int[slots];
		this.signaled = new boolean[slots];
		this.windowWork = new WindowWork[slots];
	}

	/**
	 * @return how many of the caller's work requests may be outstanding
	 */
	int capacity() {
		return this.capacity;
	}

	int size() {
		return this.count;
	}

	/**
	 * @return whether the caller's share is used up
	 */
	boolean isFull() {
		return this.count - this.windowCount >= this.capacity;
	}

	/**
	 * @return whether the provider's memory-window share is used up
	 */
	boolean isWindowWorkFull() {
		return this.windowCount >= this.windowCapacity;
	}

	/**
	 * Records a memory-window work request about to be posted.
	 * @param work told the outcome
	 * @return its slot
	 */
	int addWindowWork(WindowWork work) {
		if (isWindowWorkFull()) {
			throw new IllegalStateException("memory-window records are full");
		}
		int slot = index(this.count);
		this.wrIds[slot] = 0;
		this.opcodes[slot] = null;
		this.lengths[slot] = 0;
		this.signaled[slot] = true;
		this.windowWork[slot] = work;
		this.count++;
		this.windowCount++;
		return slot;
	}

	/**
	 * @param slot an outstanding slot
	 * @return the provider's own work of the slot, {@code null} if it is the caller's
	 */
	WindowWork windowWork(int slot) {
		return this.windowWork[slot];
	}

	/**
	 * @return whether window work was retired without its own completion
	 */
	boolean hasOrphans() {
		return !this.orphans.isEmpty();
	}

	/**
	 * Takes the window work retired without its own completion since the last call.
	 * @param into where it goes
	 */
	void drainOrphans(List<WindowWork> into) {
		if (!this.orphans.isEmpty()) {
			into.addAll(this.orphans);
			this.orphans.clear();
		}
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
		this.windowWork[slot] = null;
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
			int slot = index(this.count);
			this.opcodes[slot] = null;
			if (this.windowWork[slot] != null) {
				this.windowWork[slot] = null;
				this.windowCount--;
			}
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
			int each = index(i);
			this.opcodes[each] = null;
			WindowWork work = this.windowWork[each];
			if (work != null) {
				this.windowWork[each] = null;
				this.windowCount--;
				if (each != slot) {
					this.orphans.add(work);
				}
			}
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

package io.rpcrdma.verbs.support;

import io.rpcrdma.verbs.WorkCompletion;

/**
 * The completions a completion queue holds until they are polled, oldest first, shared by
 * providers. The ring starts with {@link #INITIAL_SLOTS} slots and doubles, up to the queue's
 * capacity, only when the completions waiting to be polled fill it; slots are made on first
 * use and kept, so producing and polling allocate nothing once a queue has reached its usual
 * depth. A queue sized for a deep send queue on an idle connection therefore holds a few
 * slots, not one per work request it might ever hold (issue #34: 10,000 idle connections,
 * where pre-made slots were 48 KiB of each connection's 74 KiB of heap).
 * <p>
 * Not thread-safe: the queue that owns it guards it with its own lock.
 */
public final class CompletionRing {

	/** The slots a new ring starts with (fewer if the capacity is smaller). */
	public static final int INITIAL_SLOTS = 16;

	private final int capacity;

	private WorkCompletion[] ring;

	private int mask;

	private long head;

	private long tail;

	/**
	 * @param capacity the most completions it holds, 1 to 2^24
	 */
	public CompletionRing(int capacity) {
		if (capacity <= 0 || capacity > (1 << 24)) {
			throw new IllegalArgumentException("Completion queue capacity must be 1 to 2^24, got " + capacity);
		}
		this.capacity = capacity;
		this.ring = new WorkCompletion[powerOfTwoAtLeast(Math.min(capacity, INITIAL_SLOTS))];
		this.mask = this.ring.length - 1;
	}

	private static int powerOfTwoAtLeast(int n) {
		int size = Integer.highestOneBit(n);
		return (size < n) ? size << 1 : size;
	}

	/** @return the completions waiting to be polled */
	public int size() {
		return (int) (this.tail - this.head);
	}

	/** @return whether it holds as many completions as its capacity */
	public boolean isFull() {
		return this.tail - this.head >= this.capacity;
	}

	/**
	 * The slot the next completion goes into, growing the ring if the waiting ones fill it.
	 * Filling it adds nothing until {@link #commit()}: a slot filled and not committed is
	 * filled again by the next caller.
	 * @return the slot after the newest completion
	 * @throws IllegalStateException if the ring is full (check {@link #isFull()} first)
	 */
	public WorkCompletion nextSlot() {
		if (isFull()) {
			throw new IllegalStateException("Completion ring of capacity " + this.capacity + " is full");
		}
		if (this.tail - this.head == this.ring.length) {
			grow();
		}
		int index = (int) (this.tail & this.mask);
		WorkCompletion slot = this.ring[index];
		if (slot == null) {
			slot = new WorkCompletion();
			this.ring[index] = slot;
		}
		return slot;
	}

	/** Adds the completion filled into {@link #nextSlot()}. */
	public void commit() {
		this.tail++;
	}

	/**
	 * Copies the oldest completions out and forgets them.
	 * @param completions where they go; {@code null} elements are made
	 * @return how many were copied
	 */
	public int drainTo(WorkCompletion[] completions) {
		int n = (int) Math.min(completions.length, this.tail - this.head);
		for (int i = 0; i < n; i++) {
			WorkCompletion into = completions[i];
			if (into == null) {
				into = new WorkCompletion();
				completions[i] = into;
			}
			into.copyFrom(this.ring[(int) (this.head & this.mask)]);
			this.head++;
		}
		return n;
	}

	/** Forgets every waiting completion. */
	public void clear() {
		this.head = this.tail;
	}

	/** @return the slots the ring has now, for tests of its growth */
	public int slots() {
		return this.ring.length;
	}

	/**
	 * Doubles the ring, which is full but below the capacity, keeping every slot made so far:
	 * waiting completions at their sequence's place in the new ring.
	 */
	private void grow() {
		WorkCompletion[] old = this.ring;
		WorkCompletion[] grown = new WorkCompletion[old.length * 2];
		int newMask = grown.length - 1;
		for (long seq = this.head; seq < this.head + old.length; seq++) {
			grown[(int) (seq & newMask)] = old[(int) (seq & this.mask)];
		}
		this.ring = grown;
		this.mask = newMask;
	}

}

package io.rpcrdma.memory;

import java.nio.ByteBuffer;

import io.rpcrdma.verbs.MemoryRegion;

/**
 * One buffer's worth of registered memory in a {@link SizeClassPool}: created when its
 * memory is registered and kept until the pool closes. A slot is either on its class's
 * free stack or leased through exactly one live {@link RegisteredBuffer}.
 */
final class Slot {

	/** The {@link #next} value of the last slot on a free stack. */
	static final int NONE = -1;

	final SizeClassPool owner;

	/** Position in {@link SizeClassPool}'s slot table; the free stack links by index. */
	final int index;

	final MemoryRegion region;

	final int offset;

	/** The slot's bytes: position 0, capacity = limit = the class's buffer size. */
	final ByteBuffer view;

	/**
	 * The lease object reused for every lease of this slot when leak tracking is off
	 * (so leasing allocates nothing); {@code null} when tracking is on, where every lease
	 * gets a fresh object.
	 */
	final RegisteredBuffer reusable;

	/**
	 * The index of the slot below this one on the free stack. Written only by the thread
	 * that pushes the slot, before the compare-and-set that publishes it; a popping thread
	 * may read a stale value of a slot that was meanwhile popped and pushed again, but then
	 * the stack's version stamp has moved on and its compare-and-set fails.
	 */
	int next = NONE;

	/**
	 * Puts this slot back on its class's free stack once its advertised STag is retired
	 * ({@link MemoryRegion#retire(Runnable)}); made once, so a release allocates nothing.
	 */
	final Runnable retired;

	Slot(SizeClassPool owner, int index, MemoryRegion region, int offset, ByteBuffer view, boolean reusableLease) {
		this.owner = owner;
		this.index = index;
		this.region = region;
		this.offset = offset;
		this.view = view;
		this.reusable = reusableLease ? new RegisteredBuffer(this, null) : null;
		this.retired = () -> owner.returnToStack(this);
	}

}

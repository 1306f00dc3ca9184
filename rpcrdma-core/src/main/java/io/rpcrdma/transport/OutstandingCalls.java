package io.rpcrdma.transport;

import java.util.function.Consumer;

/**
 * The requester's outstanding calls by XID (RFC 8166 §4.1: a reply is matched to its call by
 * rdma_xid), and the finished {@link PendingCall}s kept for reuse so a small call allocates
 * nothing. A call is reachable through holds: the calling thread's (or its credit wait's),
 * the table's, and one per completion thread that {@linkplain #borrow borrowed} it; the last
 * {@linkplain #release released} hold puts it on the free list.
 */
final class OutstandingCalls {

	/** The most finished calls a connection keeps for reuse. */
	static final int MAX_FREE_CALLS = 256;

	/** Calls by XID, sent or waiting for a credit; guarded by itself. */
	private final LongKeyTable<PendingCall> pending;

	/** Finished calls kept for reuse; guarded by itself. */
	private final PendingCall[] free;

	private int freeCount;

	/** The largest message copy a recycled call keeps. */
	private final int keptMessageLimit;

	/**
	 * @param credits the credits the requester asks for: the table's first size, and half the
	 * free list's (at least 4, at most {@link #MAX_FREE_CALLS})
	 * @param keptMessageLimit the largest message copy a recycled call keeps
	 */
	OutstandingCalls(int credits, int keptMessageLimit) {
		this.pending = new LongKeyTable<>(credits);
		this.free = new PendingCall[Math.max(4, Math.min(MAX_FREE_CALLS, 2 * credits))];
		this.keptMessageLimit = keptMessageLimit;
	}

	/** Takes a call from the free list, or makes one, and copies the message into it. */
	PendingCall obtain(OutboundCall call, CallCompletion completion) {
		PendingCall pc = null;
		synchronized (this.free) {
			if (this.freeCount > 0) {
				pc = this.free[--this.freeCount];
				this.free[this.freeCount] = null;
			}
		}
		if (pc == null) {
			pc = new PendingCall();
		}
		pc.reset(call, completion, this.keptMessageLimit);
		return pc;
	}

	/**
	 * Drops one hold on a call: the calling thread's, the pending table's, or one taken by
	 * {@link #borrow}. The last hold returns it to the free list, as no path can reach it
	 * any more: it is in no table, no thread sends it and no completion thread reads it.
	 */
	void release(PendingCall pc) {
		if (PendingCall.HOLDS.decrementAndGet(pc) != 0 || !pc.recyclable) {
			return;
		}
		pc.clear();
		synchronized (this.free) {
			if (this.freeCount < this.free.length) {
				this.free[this.freeCount++] = pc;
			}
		}
	}

	/**
	 * Enters a call under its XID.
	 * @return the call already outstanding under that XID, or {@code null} if {@code pc} went in
	 */
	PendingCall putIfAbsent(PendingCall pc) {
		synchronized (this.pending) {
			return this.pending.putIfAbsent(pc.xid, pc);
		}
	}

	/** Looks a call up by XID and holds it, so it cannot be reused before {@link #release}. */
	PendingCall borrow(int xid) {
		synchronized (this.pending) {
			PendingCall pc = this.pending.get(xid);
			if (pc != null) {
				PendingCall.HOLDS.incrementAndGet(pc);
			}
			return pc;
		}
	}

	/** @return whether {@code pc} was in the table and is now out of it */
	boolean remove(PendingCall pc) {
		synchronized (this.pending) {
			return this.pending.remove(pc.xid, pc);
		}
	}

	/** @return the call that was outstanding under {@code xid}, now out of the table, or {@code null} */
	PendingCall remove(int xid) {
		synchronized (this.pending) {
			return this.pending.remove(xid);
		}
	}

	boolean isPending(PendingCall pc) {
		synchronized (this.pending) {
			return this.pending.get(pc.xid) == pc;
		}
	}

	/**
	 * Takes the sent call with this XID out of the table, the table's hold passing to the
	 * caller; a call still waiting for its credit stays.
	 * @return the call, or {@code null} if no sent call has that XID
	 */
	PendingCall removeSent(int xid) {
		synchronized (this.pending) {
			PendingCall pc = this.pending.get(xid);
			if (pc == null || !pc.sent()) {
				return null;
			}
			this.pending.remove(xid);
			return pc;
		}
	}

	/**
	 * A credit came for a call that waited for one: the call holds it if it is still
	 * outstanding. Under the table's lock, so finishing the call either sees the credit or
	 * never runs.
	 * @return whether the call took the credit; if not, the caller gives it back
	 */
	boolean takeCredit(PendingCall pc) {
		synchronized (this.pending) {
			boolean stillPending = this.pending.get(pc.xid) == pc;
			pc.creditHeld = stillPending;
			return stillPending;
		}
	}

	/** Empties the table, telling {@code removed} each call taken out. */
	void clear(Consumer<PendingCall> removed) {
		synchronized (this.pending) {
			this.pending.clear(removed);
		}
	}

	/** @return the calls sent or waiting for a credit */
	int size() {
		synchronized (this.pending) {
			return this.pending.size();
		}
	}

	/** @return finished calls kept for reuse, at most the free list's bound */
	int freeCount() {
		synchronized (this.free) {
			return this.freeCount;
		}
	}

}

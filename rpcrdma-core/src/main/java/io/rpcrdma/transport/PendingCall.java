package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import io.rpcrdma.memory.RegisteredBuffer;

/**
 * One call from {@link RpcRdmaClientConnection#call} to its reply; the message is copied so the RPC layer may
 * reuse its buffer and the call can be sent again after ERR_VERS or once a credit frees.
 * Reused for call after call: the fields below hold the current call's state, set by
 * {@link #reset} before the call enters the pending table and dropped by {@link #clear}
 * once the last hold on it is gone.
 */
final class PendingCall {

	/**
	 * Who can still reach the call: the calling thread (or its credit wait), the pending
	 * table, and completion threads that borrowed (RpcRdmaClientConnection#borrow) it.
	 */
	static final AtomicIntegerFieldUpdater<PendingCall> HOLDS = AtomicIntegerFieldUpdater
		.newUpdater(PendingCall.class, "holds");

	volatile int holds;

	/** Cleared when a path that outlives the reply's handling captured the call. */
	volatile boolean recyclable = true;

	OutboundCall call;

	int xid;

	CallCompletion completion;

	/** The current call's copy, from position 0. */
	ByteBuffer message;

	/** The copy kept from call to call, at most the connection's kept-message limit. */
	private ByteBuffer kept;

	/** Chunk buffers leased for the call; allocated with the first, so an inline call costs none. */
	private List<RegisteredBuffer> buffers;

	/** The Write chunks offered, in order; empty until the first. */
	List<RegisteredBuffer> writeBuffers = List.of();

	/** Gives back Write chunk buffers lent to the reply, until the completion is told. */
	private Runnable lentRelease;

	RegisteredBuffer replyBuffer;

	/** Whether the header sent last carried Read chunks (Position-Zero included). */
	volatile boolean readChunksSent;

	/** Whether the message sent last was the trace-context option (TraceContextOption). */
	volatile boolean traceContextOffered;

	volatile boolean creditHeld;

	volatile int version;

	/**
	 * Takes on a call: copies its message into the kept buffer, grown as needed up to
	 * {@code keptLimit}; a larger message gets a buffer of its own, not kept.
	 */
	void reset(OutboundCall call, CallCompletion completion, int keptLimit) {
		ByteBuffer source = call.message();
		int length = source.remaining();
		ByteBuffer copy;
		if (length > keptLimit) {
			copy = ByteBuffer.allocate(length);
		}
		else {
			if (this.kept == null || this.kept.capacity() < length) {
				int capacity = Math.min(keptLimit, Math.max(length, (this.kept == null) ? 256 : this.kept.capacity() * 2));
				this.kept = ByteBuffer.allocate(capacity);
			}
			copy = this.kept.clear().limit(length);
		}
		copy.put(0, source, source.position(), length);
		this.call = call;
		this.completion = completion;
		this.message = copy;
		this.xid = copy.getInt(0);
		this.recyclable = true;
		this.readChunksSent = false;
		this.traceContextOffered = false;
		this.creditHeld = false;
	}

	/** Drops the finished call's references so nothing of it stays reachable from the free list. */
	void clear() {
		this.call = null;
		this.completion = null;
		this.message = null;
		Runnable lent = takeLentBuffers();
		if (lent != null) {
			// Every path that completes a call takes these; never leak them to the next call.
			lent.run();
		}
	}

	boolean hasBuffers() {
		synchronized (this) {
			return this.buffers != null && !this.buffers.isEmpty();
		}
	}

	boolean sent() {
		return this.creditHeld;
	}

	synchronized void add(RegisteredBuffer buffer) {
		if (this.buffers == null) {
			this.buffers = new ArrayList<>(2);
		}
		this.buffers.add(buffer);
	}

	synchronized void addWriteBuffer(RegisteredBuffer buffer) {
		if (this.writeBuffers.isEmpty()) {
			this.writeBuffers = new ArrayList<>(2);
		}
		this.writeBuffers.add(buffer);
	}

	synchronized void releaseBuffers() {
		if (this.buffers != null) {
			for (RegisteredBuffer buffer : this.buffers) {
				buffer.release();
			}
			this.buffers.clear();
		}
		this.writeBuffers = List.of();
		this.replyBuffer = null;
	}

	/**
	 * The returned Write chunks' buffers leave the call: the reply lends them to the
	 * completion, which gives them back through {@link #takeLentBuffers}'s action.
	 */
	synchronized void lendWriteBuffers() {
		if (this.writeBuffers.isEmpty()) {
			return;
		}
		List<RegisteredBuffer> lent = new ArrayList<>(this.writeBuffers);
		if (this.buffers != null) {
			this.buffers.removeAll(lent);
		}
		this.writeBuffers = List.of();
		AtomicBoolean released = new AtomicBoolean();
		this.lentRelease = () -> {
			if (released.compareAndSet(false, true)) {
				for (RegisteredBuffer buffer : lent) {
					buffer.release();
				}
			}
		};
	}

	/** @return what gives the lent Write chunk buffers back, once; {@code null} if none were lent */
	synchronized Runnable takeLentBuffers() {
		Runnable lent = this.lentRelease;
		this.lentRelease = null;
		return lent;
	}

}

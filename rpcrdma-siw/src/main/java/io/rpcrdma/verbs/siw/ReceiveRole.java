package io.rpcrdma.verbs.siw;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Who runs a connection's receive path (reads the socket and executes what arrives): the
 * connection's receive thread, or a caller waiting for its reply ({@link SiwConnection} as an
 * {@link io.rpcrdma.verbs.CallerReceivePath}). One holder at a time; the role's hand-overs
 * order the receive path's state between holders.
 * <p>
 * The receive thread holds the role by default and waits in {@code epoll}. A caller that
 * finds it so follows (parks until its reply is delivered) and asks the receive thread to step
 * down; it does so once everything read has been executed, no follower is left and no work
 * that nobody waits for was posted lately. From then on callers lead in turn: each posts its
 * call, reads its own reply and leaves the role free, and the socket has no reader between
 * calls. The receive thread takes the role back when a leader leaves followers behind, when
 * work nobody waits for is posted (an asynchronous call, whose reply must not wait for the
 * next caller), when the connection ends, or after {@link #IDLE_NANOS} without a leader — so
 * a message nobody waits for (a backchannel call, a Terminate, the end of the stream) waits
 * at most that long for a reader.
 */
final class ReceiveRole {

	/** How long the role may stay free before the receive thread takes it back. */
	static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

	private final AtomicReference<Thread> holder = new AtomicReference<>();

	private final AtomicInteger followers = new AtomicInteger();

	private volatile Thread receiveThread;

	private volatile boolean closed;

	private volatile boolean stepDown;

	private volatile boolean wanted;

	private volatile long releasedAt = System.nanoTime() - IDLE_NANOS;

	private volatile long unawaitedAt = System.nanoTime() - IDLE_NANOS;

	/** What {@link #takeOrFollow} found. */
	enum Outcome {

		/** The caller holds the role. */
		TAKEN,

		/** Another thread holds it: the caller counts as a follower. */
		FOLLOWING,

		/** The receive path ended: nobody leads any more. */
		CLOSED

	}

	// ---- the receive thread ---------------------------------------------------------------

	/**
	 * Waits until the receive thread should and may hold the role, and takes it.
	 * @param rx the receive thread
	 * @param ending whether the connection is ending, so the role is taken as soon as it is free
	 */
	void awaitTurn(Thread rx, BooleanSupplier ending) {
		this.receiveThread = rx;
		while (true) {
			long now = System.nanoTime();
			long free = now - this.releasedAt;
			if (this.holder.get() == null
					&& (this.closed || ending.getAsBoolean() || this.wanted || this.followers.get() > 0 || free >= IDLE_NANOS
							|| now - this.unawaitedAt < IDLE_NANOS)
					&& this.holder.compareAndSet(null, rx)) {
				this.wanted = false;
				this.stepDown = false;
				return;
			}
			// A leader that leaves nothing behind does not wake this thread: it looks again once
			// the path may have been free for IDLE_NANOS.
			long wait = (this.holder.get() != null) ? IDLE_NANOS : IDLE_NANOS - free;
			LockSupport.parkNanos(this, Math.max(wait, TimeUnit.MICROSECONDS.toNanos(100)));
		}
	}

	/**
	 * Asked by the receive thread whenever it has executed everything it read.
	 * @return whether to leave the role to callers ({@link #stepDown}): one asked for it, none
	 * follows, and no work nobody waits for was posted lately (its reply may still come)
	 */
	boolean askedToStepDown() {
		return this.stepDown && this.followers.get() == 0 && !this.closed
				&& System.nanoTime() - this.unawaitedAt >= IDLE_NANOS;
	}

	/**
	 * The receive thread leaves the role to callers.
	 * @param rx the receive thread, holding the role
	 */
	void stepDown(Thread rx) {
		this.stepDown = false;
		this.wanted = false;
		// A post racing this sees the role free and wakes the receive thread, or is recent
		// enough for awaitTurn to take the role straight back.
		release(rx, false);
	}

	/** The receive path ends: no caller takes the role from now on. */
	void close() {
		this.closed = true;
	}

	/** Wakes the receive thread if it waits for its turn (the connection is ending). */
	void wakeReceiveThread() {
		Thread rx = this.receiveThread;
		if (rx != null) {
			LockSupport.unpark(rx);
		}
	}

	// ---- callers ----------------------------------------------------------------------------

	/**
	 * Takes the role for a waiting caller if nobody holds it and no other caller waits, or
	 * counts it as a follower. Other callers waiting mean the role goes to the receive thread,
	 * which serves them all with one wake-up per batch of replies: callers taking turns would
	 * each have to wake it when they leave.
	 * @param caller the caller's thread
	 * @return what happened
	 */
	Outcome takeOrFollow(Thread caller) {
		if (this.closed) {
			return Outcome.CLOSED;
		}
		if (this.followers.get() == 0 && this.holder.compareAndSet(null, caller)) {
			return Outcome.TAKEN;
		}
		if (this.followers.incrementAndGet() == 1) {
			// A lone waiter asks the receive thread to let callers lead.
			this.stepDown = true;
		}
		if (this.holder.get() == null) {
			// Nobody may have seen this follower leave the role free: the receive thread takes
			// it for followers.
			LockSupport.unpark(this.receiveThread);
		}
		return Outcome.FOLLOWING;
	}

	/** A follower's reply came, or it stopped waiting. */
	void followerDone() {
		this.followers.decrementAndGet();
	}

	/**
	 * Leaves the role. A caller leaving followers behind, or work nobody waits for, wakes the
	 * receive thread to take over.
	 * @param leaver the holder
	 * @param ended whether the receive path ended under it
	 */
	void release(Thread leaver, boolean ended) {
		this.releasedAt = System.nanoTime();
		this.holder.set(null);
		Thread rx = this.receiveThread;
		if (leaver != rx && rx != null && (ended || this.closed || this.wanted || this.followers.get() > 0)) {
			LockSupport.unpark(rx);
		}
	}

	// ---- posting -----------------------------------------------------------------------------

	/**
	 * Work was posted that no caller will wait for on this connection: its outcome needs the
	 * receive thread reading, unless someone holds the role.
	 */
	void unawaitedPost() {
		this.unawaitedAt = System.nanoTime();
		if (!this.wanted) {
			this.wanted = true;
		}
		if (this.holder.get() == null) {
			LockSupport.unpark(this.receiveThread);
		}
	}

	/** @return whether callers wait for the holder to deliver their outcomes */
	boolean hasFollowers() {
		return this.followers.get() > 0;
	}

	/** @return the thread running the receive path now, or {@code null} */
	Thread holder() {
		return this.holder.get();
	}

}

package io.rpcrdma.verbs.siw;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Who runs a connection's receive path (reads the socket and executes what arrives): the
 * provider's I/O thread serving the connection, during one of its receive turns, or a caller
 * waiting for its reply ({@link SiwConnection} as an {@link io.rpcrdma.verbs.CallerReceivePath}).
 * One holder at a time; the role's hand-overs order the receive path's state between holders.
 * <p>
 * The I/O thread holds the role only while a turn runs, which never waits: between turns the
 * role is free and the I/O thread waits for the socket in its selector, with the other
 * connections it serves. A caller that finds the role free takes it, reads its own reply and
 * leaves it free; one that finds it taken follows (parks until whoever leads delivers its
 * reply). An I/O thread that finds the role taken when bytes arrive does not wait for it: it
 * marks itself wanted, and the leader, leaving, asks it for a turn ({@link #release}) — the
 * try-and-recheck by which neither side can miss the other (as the transmit side's lock is
 * handed over).
 */
final class ReceiveRole {

	private final AtomicReference<Thread> holder = new AtomicReference<>();

	private final AtomicInteger followers = new AtomicInteger();

	// The I/O thread found the role taken: the leader asks it for a turn when it leaves.
	private final AtomicBoolean readerWanted = new AtomicBoolean();

	private final Runnable wakeReader;

	private final Runnable lookLater;

	private volatile boolean closed;

	private volatile long leads;

	// Written by leaving leaders only, one at a time.
	private volatile long handOvers;

	/**
	 * How long after a caller led the path the I/O thread leaves it to callers (unless
	 * callers follow): bytes that come meanwhile (the next reply) are read
	 * by the next caller, which leads next, rather than by a turn that caller would have to
	 * follow. As the receive thread once stepped down for callers and took the path back
	 * after as long without a leader.
	 */
	static final long CALLER_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(2);

	private volatile long callerLeftAt = System.nanoTime() - CALLER_NANOS;

	/** What {@link #takeOrFollow} found. */
	enum Outcome {

		/** The caller holds the role. */
		TAKEN,

		/** Another thread holds it: the caller counts as a follower. */
		FOLLOWING,

		/** The receive path ended: nobody leads any more. */
		CLOSED

	}

	/**
	 * @param wakeReader has the I/O thread wait for the socket again (a leader leaves it
	 * drained, so bytes that come later wake the I/O thread); never blocks
	 * @param lookLater has the I/O thread look at the socket once the caller window has passed
	 * with no caller leading; never blocks
	 */
	ReceiveRole(Runnable wakeReader, Runnable lookLater) {
		this.wakeReader = wakeReader;
		this.lookLater = lookLater;
	}

	// ---- the I/O thread -----------------------------------------------------------------

	/**
	 * @param now {@link System#nanoTime()}
	 * @return how long the I/O thread should leave the path to a caller about to lead it, or
	 * 0 to take its turn now
	 */
	long leaveToCaller(long now) {
		long left = this.callerLeftAt + CALLER_NANOS - now;
		if (left <= 0 || this.followers.get() > 0 || this.closed) {
			return 0;
		}
		// No mark for the caller: while callers lead in turn the I/O thread leaves the socket
		// to them, not even waiting for it, and looks again by its timer.
		return left;
	}

	/**
	 * @param io the I/O thread
	 * @return whether a caller holds the role and no other caller follows it: the leader reads
	 * for nobody but itself
	 */
	boolean ledByCaller(Thread io) {
		Thread leader = this.holder.get();
		return leader != null && leader != io && this.followers.get() == 0;
	}

	/** @return how many times a caller has taken the role: tells one caller's lead from the next */
	long leads() {
		return this.leads;
	}

	/**
	 * Takes the role for a receive turn of the I/O thread, or leaves a mark that the leader
	 * finds when it leaves, so that the turn comes then.
	 * @param io the I/O thread
	 * @return whether the I/O thread holds the role
	 */
	boolean takeForTurn(Thread io) {
		while (true) {
			if (this.holder.compareAndSet(null, io)) {
				return true;
			}
			this.readerWanted.set(true);
			// Released between the two: the leader may have looked before the mark was set.
			if (this.holder.get() != null || !this.readerWanted.compareAndSet(true, false)) {
				return false;
			}
		}
	}

	/**
	 * Takes the role if it is free, and leaves no mark otherwise: for the I/O thread's idle
	 * looks, which need the role only to give the receive buffer back.
	 */
	boolean tryTake(Thread io) {
		return this.holder.compareAndSet(null, io);
	}

	/**
	 * Ends a turn of the I/O thread (or its idle look): the role is free. The I/O thread
	 * waits for the socket again, or has queued its next turn, by itself.
	 */
	void releaseTurn() {
		this.holder.set(null);
	}

	/** The receive path ends: no caller takes the role from now on. */
	void close() {
		this.closed = true;
	}

	boolean isClosed() {
		return this.closed;
	}

	// ---- callers ----------------------------------------------------------------------------

	/**
	 * Takes the role for a waiting caller if nobody holds it and no other caller waits, or
	 * counts it as a follower. Other callers waiting mean the role goes to the I/O thread,
	 * which serves them all with one wake-up per batch of replies: callers taking turns would
	 * each have to hand the path on when they leave.
	 * @param caller the caller's thread
	 * @return what happened
	 */
	Outcome takeOrFollow(Thread caller) {
		if (this.closed) {
			return Outcome.CLOSED;
		}
		if (this.followers.get() == 0 && this.holder.compareAndSet(null, caller)) {
			// Only the holder writes it: the role's hand-overs order the writes.
			this.leads++;
			return Outcome.TAKEN;
		}
		this.followers.incrementAndGet();
		if (this.holder.get() == null) {
			// Nobody may have seen this follower find the role free: the I/O thread reads for it.
			this.wakeReader.run();
		}
		return Outcome.FOLLOWING;
	}

	/** A follower's reply came, or it stopped waiting. */
	void followerDone() {
		this.followers.decrementAndGet();
	}

	/**
	 * A caller leaves the role. The I/O thread waits for the socket again if the caller leaves
	 * followers behind, or the path closed; if the I/O thread only found the role taken
	 * meanwhile (a long lead), it takes a turn once the caller window has passed. (A path
	 * that needs a turn without new bytes, inside a frame or waiting for a receive, is the
	 * caller's to hand on: {@link SiwConnection#receiveUntil}.)
	 * @param leaver the holder
	 */
	void release(Thread leaver) {
		this.callerLeftAt = System.nanoTime();
		this.holder.set(null);
		boolean wanted = this.readerWanted.getAndSet(false);
		if (this.closed || this.followers.get() > 0) {
			this.handOvers++;
			this.wakeReader.run();
		}
		else if (wanted) {
			this.handOvers++;
			this.lookLater.run();
		}
	}

	/**
	 * @return how many leaders, leaving, asked the I/O thread for a turn or a look: a thread
	 * hand-over each
	 */
	long handOvers() {
		return this.handOvers;
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

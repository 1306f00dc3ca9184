package io.rpcrdma.verbs;

import java.util.function.BooleanSupplier;

/**
 * A connection's receive path that a {@link WaitingCaller} may run on its own thread while it
 * waits, instead of being woken by the provider's receive thread: one thread wake-up fewer per
 * call. Providers whose receive path is code on a socket (siw) offer it; the others never
 * record one, and their callers park as usual.
 * <p>
 * One thread at a time runs the path (the leader). A caller that finds it taken follows: it
 * parks, and whoever leads completes its call, as the receive thread would.
 */
public interface CallerReceivePath {

	/**
	 * Runs the receive path on the calling thread until {@code done} holds, if nobody else
	 * runs it; everything read meanwhile is executed as the receive thread would, completion
	 * handlers included.
	 * @param done checked whenever everything read so far has been executed
	 * @param caller the waiting caller, told whether it leads or follows
	 * @return {@code true} if {@code done} held when the caller stopped leading; {@code false}
	 * if another thread runs the path (the caller is then a follower and should park), or the
	 * caller was interrupted, or the connection ended
	 */
	boolean receiveUntil(BooleanSupplier done, WaitingCaller caller);

	/** Makes a leader waiting for data check its condition again (another thread met it). */
	void wakeLeader();

	/** A follower's outcome arrived, or it stopped waiting: it no longer counts as one. */
	void followerDone();

}

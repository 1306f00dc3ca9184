package io.rpcrdma.verbs;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.function.BooleanSupplier;

/**
 * A thread that posts work and then waits for its outcome — a synchronous call — and may run
 * the receive path of the connection it posted on itself while it waits
 * ({@link CallerReceivePath}), so that the reply wakes the caller directly instead of a
 * provider receive thread that then wakes the caller. Each thread has one, reused from call to
 * call, so nothing is allocated per call.
 * <p>
 * The waiting side calls {@link #expect()} before posting, {@link #receiveUntil} while it
 * waits and {@link #end()} afterwards; whoever completes the call calls
 * {@link #outcomeArrived()}. A provider that offers a caller receive path calls
 * {@link #current()} when work is posted and {@link #posted} with the path; work posted by a
 * thread that does not wait (an asynchronous call, a reply) tells the provider to keep its own
 * receive thread reading.
 */
public final class WaitingCaller {

	private static final ThreadLocal<WaitingCaller> CURRENT = ThreadLocal.withInitial(WaitingCaller::new);

	private static final AtomicReferenceFieldUpdater<WaitingCaller, CallerReceivePath> FOLLOWING = AtomicReferenceFieldUpdater
		.newUpdater(WaitingCaller.class, CallerReceivePath.class, "following");

	/**
	 * Handed to a call nested in another on the same thread, and to virtual threads: it never
	 * runs a receive path.
	 */
	private static final WaitingCaller NESTED = new WaitingCaller(null);

	// Thread#isVirtual (Java 21), looked up once: absent on Java 17, where no thread is virtual.
	private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

	private final Thread owner;

	// A virtual thread waiting in a selector would hold its carrier thread: it parks instead.
	private final boolean virtual;

	private boolean expecting;

	// Written and read by the owner only: the path the call was posted on.
	private CallerReceivePath path;

	private boolean ambiguous;

	private volatile CallerReceivePath leading;

	private volatile CallerReceivePath following;

	private WaitingCaller() {
		this(Thread.currentThread());
	}

	private WaitingCaller(Thread owner) {
		this.owner = owner;
		this.virtual = owner != null && isVirtual(owner);
	}

	/**
	 * The current thread is about to post a call and wait for its outcome.
	 * @return the thread's waiting caller, or one that never leads if the thread is already
	 * waiting for another call (a call nested in one)
	 */
	public static WaitingCaller expect() {
		WaitingCaller caller = CURRENT.get();
		if (caller.expecting || caller.virtual) {
			return NESTED;
		}
		caller.expecting = true;
		caller.path = null;
		caller.ambiguous = false;
		return caller;
	}

	/**
	 * For providers, when work is posted.
	 * @return the current thread's waiting caller if it will wait for what it posts, else
	 * {@code null}
	 */
	public static WaitingCaller current() {
		WaitingCaller caller = CURRENT.get();
		return caller.expecting ? caller : null;
	}

	/**
	 * For providers: the caller posted on this path. Work posted on two paths before one wait
	 * leaves the caller to park, since its outcome may come by either.
	 * @param posted the connection's receive path
	 */
	public void posted(CallerReceivePath posted) {
		if (this.path == null) {
			this.path = posted;
		}
		else if (this.path != posted) {
			this.ambiguous = true;
		}
	}

	/**
	 * Runs the receive path the call was posted on until {@code done} holds, if it can.
	 * @param done whether the outcome arrived
	 * @return {@code true} if it led until {@code done} held; {@code false} if it should park
	 */
	public boolean receiveUntil(BooleanSupplier done) {
		CallerReceivePath posted = this.path;
		if (posted == null || this.ambiguous || this.following != null) {
			return false;
		}
		return posted.receiveUntil(done, this);
	}

	/**
	 * For providers: the caller leads {@code path} now, or no longer ({@code null}).
	 * @param path the path it runs
	 */
	public void leading(CallerReceivePath path) {
		this.leading = path;
	}

	/**
	 * For providers: the caller follows {@code path}; {@link #outcomeArrived()} or
	 * {@link #end()} tells the path when it stops.
	 * @param path the path another thread runs
	 */
	public void following(CallerReceivePath path) {
		this.following = path;
	}

	/**
	 * Whoever completed the call says so: a follower stops counting as one, and a leader that
	 * waits for data on another thread's behalf looks again.
	 */
	public void outcomeArrived() {
		stopFollowing();
		if (Thread.currentThread() != this.owner) {
			CallerReceivePath led = this.leading;
			if (led != null) {
				led.wakeLeader();
			}
		}
	}

	/** The call is over: the thread may post work it does not wait for. */
	public void end() {
		stopFollowing();
		if (this == NESTED) {
			return;
		}
		this.expecting = false;
		this.path = null;
		this.ambiguous = false;
	}

	private static MethodHandle isVirtualHandle() {
		try {
			return MethodHandles.publicLookup()
				.findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
		}
		catch (NoSuchMethodException | IllegalAccessException ex) {
			return null;
		}
	}

	private static boolean isVirtual(Thread thread) {
		if (IS_VIRTUAL == null) {
			return false;
		}
		try {
			return (boolean) IS_VIRTUAL.invokeExact(thread);
		}
		catch (Throwable ex) {
			return false;
		}
	}

	private void stopFollowing() {
		CallerReceivePath followed = FOLLOWING.getAndSet(this, null);
		if (followed != null) {
			followed.followerDone();
		}
	}

}

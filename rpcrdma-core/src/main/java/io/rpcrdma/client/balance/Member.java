package io.rpcrdma.client.balance;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.CallChunks;
import io.rpcrdma.client.CallTimer;
import io.rpcrdma.client.ReceivedReply;
import io.rpcrdma.client.ReplyCallback;
import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.RpcClientPool;

/**
 * One instance inside a {@link BalancedCaller}: its pool (opened on first use), the calls on
 * it, its health, and its probes while ejected. The call path touches only atomics and
 * volatiles here; state changes (ejection, probes, draining) take the lock.
 */
final class Member {

	/** A NULL call: no arguments, an empty reply (RFC 5531 §12.1 defines procedure 0 so). */
	private static final CallChunks PROBE_SHAPE = CallChunks.of(1024, 0);

	private final BalancedCaller owner;

	final ServerInstance instance;

	private final AtomicInteger outstanding = new AtomicInteger();

	private final AtomicInteger failures = new AtomicInteger();

	private volatile InstanceState state = InstanceState.UP;

	/** What calls go through: the pool, or what protects it. */
	private volatile RpcCaller caller;

	private volatile RpcClientPool pool;

	private volatile Throwable lastFailure;

	private volatile long lastFailureMillis;

	/** Under the lock. */
	private boolean closed;

	/** Under the lock: probes failed in a row since the ejection. */
	private int failedProbes;

	/** Under the lock: the program and version probed, those of the call that ejected. */
	private int probeProgram;

	private int probeVersion;

	/** Under the lock. */
	private CallTimer.Timeout probe;

	Member(BalancedCaller owner, ServerInstance instance) {
		this.owner = owner;
		this.instance = instance;
	}

	boolean isUp() {
		return this.state == InstanceState.UP;
	}

	int outstanding() {
		return this.outstanding.get();
	}

	/** @return whether its pool has no connection and could not open one lately */
	boolean unreachable() {
		RpcClientPool open = this.pool;
		return open != null && open.isUnreachable();
	}

	/**
	 * Counts a call onto this instance, opening its pool on the first.
	 * @return what to send the call through, or {@code null} if the instance takes no call
	 * (draining, closed, or its pool would not open); nothing is counted then
	 */
	RpcCaller acquire(int program, int version) {
		// Counted before the state is read, and drain() sets the state before it reads the
		// count: either this call sees DRAINING, or drain sees the call and leaves the closing
		// to release().
		this.outstanding.incrementAndGet();
		RpcCaller target = this.caller;
		if (target == null) {
			target = open(program, version);
		}
		if (target == null || this.state == InstanceState.DRAINING) {
			release();
			return null;
		}
		return target;
	}

	/** A call counted by {@link #acquire} ended. */
	void release() {
		if (this.outstanding.decrementAndGet() == 0 && this.state == InstanceState.DRAINING) {
			closeNow();
		}
	}

	private RpcCaller open(int program, int version) {
		synchronized (this) {
			if (this.caller != null || this.closed || this.state == InstanceState.DRAINING) {
				return this.caller;
			}
			try {
				openPool();
				return this.caller;
			}
			catch (RuntimeException ex) {
				// Counted outside the lock below: failed() may eject, which takes it again.
				this.lastFailure = ex;
			}
		}
		failed(this.lastFailure, program, version);
		return null;
	}

	/** Under the lock. */
	private RpcClientPool openPool() {
		if (this.pool == null) {
			RpcClientPool opened = this.owner.opener().open(this.instance);
			if (opened == null) {
				throw new IllegalStateException("The pool opener of " + this.owner.endpoint() + " returned no pool for "
						+ this.instance);
			}
			UnaryOperator<RpcCaller> protection = this.owner.protection();
			if (protection != BalancedCaller.UNPROTECTED) {
				// RPCSEC_GSS contexts are bound to a connection: each connection gets its own.
				opened.protectConnections(protection);
			}
			this.pool = opened;
			this.caller = opened;
		}
		return this.pool;
	}

	/** A reply came: the instance is reachable. */
	void succeeded() {
		// Read before writing, so that a healthy instance's calls do not all write one line.
		if (this.failures.get() != 0) {
			this.failures.set(0);
		}
	}

	/** A connection failure: counts toward ejection. */
	void failed(Throwable failure, int program, int version) {
		this.lastFailure = failure;
		this.lastFailureMillis = System.currentTimeMillis();
		int inARow = this.failures.incrementAndGet();
		if (inARow >= this.owner.config().ejection().consecutiveFailures() && this.state == InstanceState.UP
				&& eject(program, version)) {
			// Outside the lock: the source may look again (rpcbind) and tell the caller, which
			// then replaces this instance if it moved.
			this.owner.ejected(this.instance);
		}
	}

	/** Found unreachable before a call was sent: a connection failure, with the pool's reason. */
	void foundUnreachable(int program, int version) {
		RpcClientPool open = this.pool;
		Throwable why = (open != null) ? open.lastFailure().orElse(null) : null;
		failed((why != null) ? why : new IllegalStateException("no connection to " + this.instance + " is open"),
				program, version);
	}

	/** @return whether this call ejected it (it was up) */
	private synchronized boolean eject(int program, int version) {
		if (this.state != InstanceState.UP) {
			return false;
		}
		this.state = InstanceState.EJECTED;
		this.probeProgram = program;
		this.probeVersion = version;
		this.failedProbes = 0;
		scheduleProbe();
		return true;
	}

	/** Under the lock. */
	private void scheduleProbe() {
		this.probe = this.owner.timer().schedule(this.owner.config().ejection().probe().delay(this.failedProbes + 1),
				this::probe);
	}

	/** On the timer: a NULL call through the pool, which must not block. */
	private void probe() {
		RpcClientPool target;
		synchronized (this) {
			if (this.state != InstanceState.EJECTED || this.closed) {
				return;
			}
			this.state = InstanceState.PROBING;
			try {
				target = openPool();
			}
			catch (RuntimeException ex) {
				target = null;
				this.lastFailure = ex;
			}
		}
		if (target == null) {
			probed(this.lastFailure);
			return;
		}
		// Through the pool, not what protects it: a NULL call proves the server reachable
		// without touching an RPCSEC_GSS context's sequence window.
		target.call(this.probeProgram, this.probeVersion, 0, CallBody.NONE, PROBE_SHAPE, true,
				this.owner.config().ejection().probeTimeout(), new ReplyCallback() {

					@Override
					public void replied(ReceivedReply reply) {
						reply.release();
						probed(null);
					}

					@Override
					public void failed(Throwable failure) {
						probed(Failures.serverAnswered(failure) ? null : failure);
					}

				});
	}

	/** @param failure why the probe failed, or {@code null} if the instance answered */
	private synchronized void probed(Throwable failure) {
		if (this.state != InstanceState.PROBING) {
			return;
		}
		if (failure == null) {
			this.failures.set(0);
			this.failedProbes = 0;
			this.state = InstanceState.UP;
			return;
		}
		this.lastFailure = failure;
		this.lastFailureMillis = System.currentTimeMillis();
		this.failedProbes++;
		this.state = InstanceState.EJECTED;
		scheduleProbe();
	}

	/** Gone from the set: no new calls; closes once the calls on it have ended. */
	void drain() {
		synchronized (this) {
			this.state = InstanceState.DRAINING;
			cancelProbe();
		}
		if (this.outstanding.get() == 0) {
			closeNow();
		}
	}

	/** Closes at once: waiting calls fail. */
	void close() {
		synchronized (this) {
			this.state = InstanceState.DRAINING;
			cancelProbe();
		}
		closeNow();
	}

	/** Under the lock. */
	private void cancelProbe() {
		if (this.probe != null) {
			this.probe.cancel();
			this.probe = null;
		}
	}

	private void closeNow() {
		RpcClientPool open;
		synchronized (this) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			open = this.pool;
		}
		// The pool undoes what protects each connection (an RPCSEC_GSS destroy) before closing it.
		if (open != null) {
			open.close();
		}
		this.owner.closed(this);
	}

	/** @return the pool, if one was opened */
	RpcClientPool pool() {
		return this.pool;
	}

	InstanceStats stats() {
		Throwable failure = this.lastFailure;
		return new InstanceStats(this.instance, this.state, this.outstanding.get(), this.failures.get(),
				(failure != null) ? Failures.describe(failure) : null,
				(failure != null) ? Instant.ofEpochMilli(this.lastFailureMillis) : null);
	}

}

package io.rpcrdma.client;

import java.time.Duration;

/**
 * The timer that closes an {@link RpcClientPool}'s idle connections above its minimum: every
 * half idle timeout, so that a connection is closed between one and one and a half timeouts
 * idle. Not thread-safe: the pool holds its lock around every use.
 */
final class IdleSweep {

	private final CallTimer timer;

	private final Duration period;

	private final Runnable sweep;

	private CallTimer.Timeout next;

	/**
	 * @param timer runs the sweeps
	 * @param idleTimeout the pool's idle timeout; zero never sweeps
	 * @param sweep closes what has been idle too long, then calls {@link #schedule()}
	 */
	IdleSweep(CallTimer timer, Duration idleTimeout, Runnable sweep) {
		this.timer = timer;
		Duration half = idleTimeout.dividedBy(2);
		this.period = half.isZero() ? idleTimeout : half;
		this.sweep = sweep;
	}

	/** Schedules the next sweep, unless the idle timeout is zero. */
	void schedule() {
		if (!this.period.isZero()) {
			this.next = this.timer.schedule(this.period, this.sweep);
		}
	}

	void cancel() {
		if (this.next != null) {
			this.next.cancel();
		}
	}

}

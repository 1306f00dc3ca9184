package io.rpcrdma.transport;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Watches one connection for a peer that leaves the work this side posted unanswered
 * ({@link PeerLimits#operationTimeout()}): an RDMA Read of a chunk the peer advertised that
 * never completes holds this side's buffers for as long as the connection lives (RFC 8166
 * §3.4.5, §8). Looks on the shared transport timer, never on a completion thread.
 */
final class OperationWatch {

	private final RpcRdmaEndpoint endpoint;

	private final PeerLimits limits;

	private final TransportCounters counters;

	/**
	 * Send-queue completions so far (RDMA Reads, Sends, Writes): the progress the watch looks
	 * for. Written by whichever thread handles the connection's completions, one at a time; a
	 * lazy store, read by the timer.
	 */
	private final AtomicLong completions = new AtomicLong();

	private final ScheduledFuture<?> task;

	// Touched by the timer thread only.
	private long watchedCompletions = -1;

	private long stalledSince;

	private boolean idleAtLastLook = true;

	/**
	 * Starts watching.
	 * @param endpoint the connection
	 * @param limits its peer limits
	 * @param counters where operation timeouts are counted
	 */
	OperationWatch(RpcRdmaEndpoint endpoint, PeerLimits limits, TransportCounters counters) {
		this.endpoint = endpoint;
		this.limits = limits;
		this.counters = counters;
		// A quarter of the shorter timeout: a stall is seen at most a quarter late, under
		// memory pressure too.
		long period = Math.max(1_000_000, limits.operationTimeoutUnderPressure().toNanos() / 4);
		this.task = TransportTimers.TIMER.scheduleWithFixedDelay(this::look, period, period, TimeUnit.NANOSECONDS);
	}

	/** A send-queue work request completed: on the completion thread, allocation-free. */
	void completed() {
		this.completions.lazySet(this.completions.get() + 1);
	}

	/** Stops watching: the connection failed. */
	void cancel() {
		this.task.cancel(false);
	}

	/**
	 * The operation watch, on the timer thread: a connection with work posted and no
	 * send-queue completion for {@link PeerLimits#operationTimeout()} (or
	 * {@link PeerLimits#operationTimeoutUnderPressure()}) has a peer that leaves its
	 * oldest work request unanswered (work requests of a queue pair complete in order), such as
	 * an RDMA Read of a chunk it advertised (RFC 8166 §3.4.5). Failing the connection flushes everything it
	 * posted, which gives its buffers back. Work posted after an idle look counts from the next
	 * look, so nothing is failed before it has waited the whole timeout.
	 */
	private void look() {
		if (!this.endpoint.isUsable()) {
			this.task.cancel(false);
			return;
		}
		long now = System.nanoTime();
		long completions = this.completions.get();
		boolean idle = !this.endpoint.hasOperations();
		if (idle || this.idleAtLastLook || completions != this.watchedCompletions) {
			this.watchedCompletions = completions;
			this.stalledSince = now;
			this.idleAtLastLook = idle;
			return;
		}
		Duration timeout = this.endpoint.underMemoryPressure() ? this.limits.operationTimeoutUnderPressure()
				: this.limits.operationTimeout();
		if (now - this.stalledSince >= timeout.toNanos()) {
			this.counters.operationTimeouts.increment();
			this.endpoint.fail(new PeerTimeoutException("The peer left work this side posted unanswered for "
					+ timeout.toMillis()
					+ " ms (an RDMA Read of its chunk, or the Read that confirms a Send); the connection was failed and "
					+ "its buffers reclaimed. If the peer is just slow, raise PeerLimits.operationTimeout "
					+ "(rpcrdma.*.peer.operation-timeout)"));
		}
	}

}

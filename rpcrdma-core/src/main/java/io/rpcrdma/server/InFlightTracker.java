package io.rpcrdma.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.rpcrdma.oncrpc.ProgramNumberText;
import io.rpcrdma.oncrpc.RpcCall;

/**
 * Counts the calls a server is executing, for a graceful shutdown: stop accepting new calls,
 * let the running ones finish within a grace period, then report those still running so the
 * caller can fail them clearly (for example by closing their connections, which the clients
 * see as a lost connection and may retry elsewhere).
 * <p>
 * Admission and the "stopped" flag share one atomic word (the top bit is the flag, the rest
 * the count), so no call can slip in after {@link #shutdown} has looked at the count.
 */
public final class InFlightTracker {

	private static final long STOPPED = Long.MIN_VALUE;

	private final AtomicLong state = new AtomicLong();

	/**
	 * The running calls' tickets, for the shutdown report: a list threaded through the tickets
	 * themselves, guarded by itself, so admitting a call allocates nothing but its ticket.
	 */
	private final Ticket running = new Ticket();

	private final CompletableFuture<Void> quiescent = new CompletableFuture<>();

	private final LongSupplier nanoClock;

	/** A tracker timing calls with {@link System#nanoTime()}. */
	public InFlightTracker() {
		this(System::nanoTime);
	}

	/**
	 * @param nanoClock the time source for how long calls have been running
	 */
	public InFlightTracker(LongSupplier nanoClock) {
		this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
	}

	/**
	 * Admits a call unless the tracker has stopped accepting.
	 * @param clientKey who sent it
	 * @param call its header
	 * @return the ticket to {@link Ticket#exit() exit} exactly when the call is finished, or
	 * {@code null} if shutdown has begun
	 */
	public Ticket tryEnter(Object clientKey, RpcCall call) {
		if (!isAccepting()) {
			return null;
		}
		Ticket ticket = new Ticket(this, clientKey, call);
		return enter(ticket) ? ticket : null;
	}

	/**
	 * Admits a call whose ticket its caller made (the dispatcher's exchange is its own ticket,
	 * so admitting a call allocates nothing more).
	 * @param ticket a ticket of this tracker, not entered before
	 * @return whether the call was admitted; {@code false} if shutdown has begun
	 */
	boolean enter(Ticket ticket) {
		long current;
		do {
			current = this.state.get();
			if ((current & STOPPED) != 0) {
				return false;
			}
		}
		while (!this.state.compareAndSet(current, current + 1));
		ticket.startNanos = this.nanoClock.getAsLong();
		synchronized (this.running) {
			ticket.linkAfter(this.running);
		}
		return true;
	}

	/**
	 * @return whether new calls are admitted
	 */
	public boolean isAccepting() {
		return (this.state.get() & STOPPED) == 0;
	}

	/**
	 * @return the number of calls admitted and not yet finished
	 */
	public int inFlight() {
		return (int) (this.state.get() & ~STOPPED);
	}

	/**
	 * Stops admitting calls and waits up to {@code grace} for the running ones to finish.
	 * Calling it again returns a report for the same quiescence with the new grace period.
	 * @param grace how long running calls may take to finish
	 * @return completes with a report as soon as no call is running, or when the grace period
	 * has passed, listing the calls still running then
	 */
	public CompletableFuture<ShutdownReport> shutdown(Duration grace) {
		long before = this.state.getAndUpdate((s) -> s | STOPPED);
		if ((before & ~STOPPED) == 0) {
			this.quiescent.complete(null);
		}
		CompletableFuture<ShutdownReport> report = new CompletableFuture<>();
		this.quiescent.thenRun(() -> report.complete(new ShutdownReport(true, List.of())));
		if (!report.isDone()) {
			CompletableFuture.delayedExecutor(Math.max(0, grace.toNanos()), TimeUnit.NANOSECONDS)
				.execute(() -> report.complete(new ShutdownReport(this.inFlight() == 0, stragglers())));
		}
		return report;
	}

	private List<Straggler> stragglers() {
		long now = this.nanoClock.getAsLong();
		List<Straggler> list = new ArrayList<>();
		synchronized (this.running) {
			for (Ticket ticket = this.running.next; ticket != this.running; ticket = ticket.next) {
				list.add(new Straggler(ticket.clientKey, ticket.call, Duration.ofNanos(now - ticket.startNanos)));
			}
		}
		list.sort(Comparator.comparing(Straggler::runningFor).reversed());
		return List.copyOf(list);
	}

	private void exit(Ticket ticket) {
		synchronized (this.running) {
			if (!ticket.unlink()) {
				return;
			}
		}
		long after = this.state.decrementAndGet();
		if (after == STOPPED) {
			this.quiescent.complete(null);
		}
	}

	/**
	 * Proof of admission of one call; exit it exactly once when the call is finished. Only
	 * this package makes tickets.
	 */
	public static class Ticket {

		private final InFlightTracker tracker;

		final Object clientKey;

		final RpcCall call;

		/** Set when admitted, before the ticket is published. */
		private long startNanos;

		/** Neighbours in the running list, guarded by its head; {@code null} once exited. */
		private Ticket previous;

		private Ticket next;

		/**
		 * @param tracker the tracker that admits it ({@link InFlightTracker#enter})
		 * @param clientKey who sent the call
		 * @param call its header
		 */
		Ticket(InFlightTracker tracker, Object clientKey, RpcCall call) {
			this.tracker = tracker;
			this.clientKey = clientKey;
			this.call = call;
		}

		/** The running list's head: a ring of one. */
		private Ticket() {
			this(null, null, null);
			this.previous = this;
			this.next = this;
		}

		private void linkAfter(Ticket head) {
			this.previous = head;
			this.next = head.next;
			head.next.previous = this;
			head.next = this;
		}

		/** @return whether the ticket was still running (it no longer is) */
		private boolean unlink() {
			if (this.next == null) {
				return false;
			}
			this.previous.next = this.next;
			this.next.previous = this.previous;
			this.previous = null;
			this.next = null;
			return true;
		}

		/**
		 * Marks the call finished; later calls have no effect.
		 */
		public void exit() {
			this.tracker.exit(this);
		}

	}

	/**
	 * How a shutdown's grace period ended.
	 *
	 * @param quiescent whether every call finished
	 * @param stragglers the calls still running when the grace period ended, longest first
	 */
	public record ShutdownReport(boolean quiescent, List<Straggler> stragglers) {

		@Override
		public String toString() {
			if (this.quiescent) {
				return "all calls finished";
			}
			StringBuilder text = new StringBuilder(this.stragglers.size() + " calls still running after the grace period:");
			for (Straggler straggler : this.stragglers) {
				text.append("\n  ").append(straggler);
			}
			return text.toString();
		}

	}

	/**
	 * A call still running when the grace period ended.
	 *
	 * @param clientKey who sent it
	 * @param call its header
	 * @param runningFor how long it had been running
	 */
	public record Straggler(Object clientKey, RpcCall call, Duration runningFor) {

		@Override
		public String toString() {
			return "program " + ProgramNumberText.hex(this.call.program()) + " version "
					+ Integer.toUnsignedString(this.call.version()) + " procedure "
					+ Integer.toUnsignedString(this.call.procedure()) + " xid " + String.format("0x%08x", this.call.xid())
					+ " from " + this.clientKey + ", running for " + this.runningFor.toMillis() + " ms";
		}

	}

}

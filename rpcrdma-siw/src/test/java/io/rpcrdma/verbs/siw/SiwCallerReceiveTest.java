package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.WaitingCaller;
import io.rpcrdma.verbs.WorkCompletion;

/**
 * A caller waiting for its reply runs the connection's receive path itself
 * ({@link WaitingCaller}, {@link ReceiveRole}): the reply is executed on its thread, and
 * every other message still finds a reader — a reply nobody waits for, the end of the
 * stream, a caller that gives up.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SiwCallerReceiveTest {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	private Peer server;

	private Peer client;

	/** Whether the server answers each Send with one of its own. */
	private final AtomicBoolean echo = new AtomicBoolean(true);

	/** How long after a Send the server answers it: 0 for at once, in its completion handler. */
	private volatile long echoDelayMillis;

	private final ScheduledExecutorService slowServer = Executors.newSingleThreadScheduledExecutor();

	@AfterEach
	void close() {
		this.slowServer.shutdownNow();
		SiwTestPeer.close(this.client, this.server);
	}

	@Test
	void aWaitingCallerReadsItsOwnRepliesOnItsOwnThread() throws Exception {
		connect(RdmaProviderConfig.defaults());
		int ownThread = 0;
		// On a loaded CI host more I/O-thread turns run just as a reply comes: the round trips go
		// on, within a deadline, until 25 were read by their callers.
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		for (int i = 0; i < 50 || (ownThread < 25 && System.nanoTime() < deadline); i++) {
			Exchange exchange = roundTrip();
			if (exchange.completedOn() == Thread.currentThread()) {
				ownThread++;
				assertThat(exchange.led()).as("only a caller leading the receive path executes its reply").isTrue();
			}
		}
		// The I/O thread holds the path only during its turns, and a lone caller finds it free
		// unless a turn runs just then: a noisy machine may cost a few round trips.
		assertThat(ownThread).as("round trips whose caller read its own reply").isGreaterThanOrEqualTo(25);
	}

	@Test
	void withCallerReceivesOffTheIoThreadReadsEveryReply() throws Exception {
		connect(RdmaProviderConfig.defaults().with(SiwSettings.CALLER_RECEIVES, "false"));
		for (int i = 0; i < 20; i++) {
			Exchange exchange = roundTrip();
			assertThat(exchange.led()).isFalse();
			assertThat(exchange.completedOn().getName()).startsWith("siw-io-");
		}
	}

	@Test
	void aLeadingCallerCatchesItsReplyWhilePollingTheSocket() throws Exception {
		connect(RdmaProviderConfig.defaults().with(SiwSettings.CALLER_SPIN_MICROS, "1000"));
		awaitCallersLeading();
		CallerSpin spin = ((SiwConnection) this.client.connection).callerSpin();
		int led = 0;
		// An echo comes back well within a millisecond unless the host stalls: most are caught
		// by the poll, and a stalled one only makes the next waits skip it for a while. On a
		// loaded CI host every reply of 50 missed the 1 ms poll once, so the round trips go on,
		// within a deadline, until one is caught.
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		for (int i = 0; i < 50 || (spin.hits() == 0 && System.nanoTime() < deadline); i++) {
			if (roundTrip().led()) {
				led++;
			}
		}
		assertThat(led).as("round trips whose caller read its own reply").isPositive();
		assertThat(spin.hits()).as("replies read while polling").isPositive();
	}

	@Test
	void aLeadingCallerWithPollingOffGoesStraightToItsWait() throws Exception {
		connect(RdmaProviderConfig.defaults().with(SiwSettings.CALLER_SPIN_MICROS, "0"));
		awaitCallersLeading();
		for (int i = 0; i < 20; i++) {
			roundTrip();
		}
		CallerSpin spin = ((SiwConnection) this.client.connection).callerSpin();
		assertThat(spin.hits() + spin.misses()).as("polls").isZero();
	}

	@Test
	void aVirtualThreadParksInsteadOfHoldingItsCarrierInTheReceivePath() throws Exception {
		Assumptions.assumeTrue(Runtime.version().feature() >= 21,
				"SKIPPED: virtual threads need Java 21 or later; this runs on " + Runtime.version());
		connect(RdmaProviderConfig.defaults());
		CompletableFuture<List<Exchange>> exchanges = new CompletableFuture<>();
		Runnable calls = () -> {
			try {
				List<Exchange> made = new java.util.ArrayList<>();
				for (int i = 0; i < 20; i++) {
					made.add(roundTrip());
				}
				exchanges.complete(made);
			}
			catch (Throwable ex) {
				exchanges.completeExceptionally(ex);
			}
		};
		Thread.class.getMethod("startVirtualThread", Runnable.class).invoke(null, calls);
		assertThat(exchanges.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).allSatisfy((exchange) -> {
			assertThat(exchange.led()).isFalse();
			assertThat(exchange.completedOn().getName()).startsWith("siw-io-");
		});
	}

	@Test
	void callersWaitingLongerThanTheCallerWindowReadTheirRepliesWithoutHandingOverToTheIoThread() throws Exception {
		connect(RdmaProviderConfig.defaults());
		awaitCallersLeading();
		// Each reply comes 5 ms after its call: past the caller window (2 ms), after which the
		// I/O thread looks at the connection, and within the looks of one lead (14 ms).
		this.echoDelayMillis = 5;
		ReceiveRole role = ((SiwConnection) this.client.connection).receiveRole();
		long handOversBefore = role.handOvers();
		int led = 0;
		int calls = 30;
		for (int i = 0; i < calls; i++) {
			if (roundTrip().led()) {
				led++;
			}
		}
		long handOvers = role.handOvers() - handOversBefore;
		assertThat(led).as("round trips whose caller read its own reply").isGreaterThanOrEqualTo(calls / 2);
		// Before: the I/O thread, finding the role taken, marked itself wanted, and every leaving
		// caller handed over to it (about one per call). A stalled host may stretch a few leads
		// past 14 ms, which then hand over once each.
		assertThat(handOvers).as("leaders that handed over to the I/O thread, in %d calls", calls)
			.isLessThanOrEqualTo(calls / 3);
		this.echoDelayMillis = 0;
		// What a leaving caller leaves unread is still read: a reply nobody waits for.
		int before = this.client.replies.get();
		this.client.qp.postSend(SendWorkRequest.send(7, ScatterGatherEntry.of(this.client.outbox, 0, 8)));
		awaitReplies(before + 1);
	}

	@Test
	void aReplyNobodyWaitsForIsReadByTheIoThreadWhileCallersLead() throws Exception {
		connect(RdmaProviderConfig.defaults());
		awaitCallersLeading();
		int before = this.client.replies.get();
		// Posted by a thread that will not wait for it (an asynchronous call).
		this.client.qp.postSend(SendWorkRequest.send(7, ScatterGatherEntry.of(this.client.outbox, 0, 8)));
		awaitReplies(before + 1);
		assertThat(this.client.completedOn.get(before).getName()).startsWith("siw-io-");
		assertThat(roundTrip().completedOn()).isNotNull();
	}

	@Test
	void aLeaderWaitingForAReplyThatNeverComesLeavesWhenThePeerCloses() throws Exception {
		connect(RdmaProviderConfig.defaults());
		SilentCall call = new SilentCall(() -> false);
		call.awaitLeading();
		this.server.connection.disconnect();
		assertThat(call.led.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).as("the caller did not see its reply")
			.isFalse();
		assertThat(this.client.flushed.poll(DEADLINE.toMillis(), TimeUnit.MILLISECONDS))
			.as("the client's receives flushed when the stream ended")
			.isEqualTo(CompletionStatus.WR_FLUSH_ERR);
		assertThat(this.client.connection.isConnected()).isFalse();
	}

	@Test
	void anInterruptedLeaderLeavesAndTheNextCallerStillGetsItsReply() throws Exception {
		connect(RdmaProviderConfig.defaults());
		SilentCall call = new SilentCall(() -> false);
		call.awaitLeading();
		call.thread.interrupt();
		assertThat(call.led.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isFalse();
		assertThat(call.interruptedAfter).as("the interrupt stays for the caller to see").isTrue();
		// The server answers the abandoned Send now; the next round trip gets its own reply.
		// Not before the server took that Send silently: echoing it too would be a third reply.
		call.awaitServerReceived();
		this.echo.set(true);
		int before = this.client.replies.get();
		this.server.qp.postSend(SendWorkRequest.send(9, ScatterGatherEntry.of(this.server.outbox, 0, 8)));
		awaitReplies(before + 1);
		Exchange next = roundTrip();
		assertThat(next.completedOn()).isNotNull();
		assertThat(this.client.replies.get()).isEqualTo(before + 2);
	}

	@Test
	void aLeaderLooksAgainWhenAnotherThreadCompletesItsCall() throws Exception {
		connect(RdmaProviderConfig.defaults());
		AtomicBoolean outcome = new AtomicBoolean();
		SilentCall call = new SilentCall(outcome::get);
		WaitingCaller caller = call.awaitLeading();
		// A deadline, say, ends the call on the timer's thread.
		outcome.set(true);
		caller.outcomeArrived();
		assertThat(call.led.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
	}

	/**
	 * A caller, on a thread of its own, whose Send the server does not answer, once it leads
	 * the receive path; as a follower (an I/O thread's turn held the path just then) it
	 * tries again.
	 */
	private final class SilentCall {

		final CompletableFuture<Boolean> led = new CompletableFuture<>();

		final AtomicBoolean interruptedAfter = new AtomicBoolean();

		final Thread thread;

		private volatile WaitingCaller waiting;

		// The server's receive count once it has taken the silent Send.
		private volatile int receivedWhenTaken = Integer.MAX_VALUE;

		SilentCall(BooleanSupplier done) {
			this.thread = new Thread(() -> {
				try {
					this.led.complete(run(done));
				}
				catch (Throwable ex) {
					this.led.completeExceptionally(ex);
				}
			}, "silent-caller");
			this.thread.setDaemon(true);
			this.thread.start();
		}

		private boolean run(BooleanSupplier done) {
			SiwCallerReceiveTest test = SiwCallerReceiveTest.this;
			for (int attempt = 0; attempt < 100; attempt++) {
				test.echo.set(true);
				awaitCallersLeading();
				test.echo.set(false);
				WaitingCaller caller = WaitingCaller.expect();
				int received = test.server.received.get() + 1;
				this.receivedWhenTaken = received;
				try {
					test.client.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(test.client.outbox, 0, 8)));
					this.waiting = caller;
					boolean led = caller.receiveUntil(done);
					this.waiting = null;
					boolean leftAsLeader = led || Thread.currentThread().isInterrupted() || !test.client.connection.isConnected();
					if (leftAsLeader) {
						this.interruptedAfter.set(Thread.interrupted());
						return led;
					}
					// A follower: let the server take the unanswered Send before it echoes again.
					long deadline = System.nanoTime() + DEADLINE.toNanos();
					while (test.server.received.get() < received) {
						assertThat(System.nanoTime() - deadline).as("the server receives the Send").isNegative();
						Thread.onSpinWait();
					}
				}
				finally {
					caller.end();
				}
			}
			throw new AssertionError("The silent call never got to lead in 100 attempts");
		}

		/** Waits until the server has taken the silent Send (without answering it). */
		void awaitServerReceived() {
			SiwCallerReceiveTest test = SiwCallerReceiveTest.this;
			long deadline = System.nanoTime() + DEADLINE.toNanos();
			while (test.server.received.get() < this.receivedWhenTaken) {
				assertThat(System.nanoTime() - deadline).as("the server receives the silent Send").isNegative();
				Thread.onSpinWait();
			}
		}

		/** @return the caller, once it leads the receive path waiting for its silent reply */
		WaitingCaller awaitLeading() {
			ReceiveRole role = ((SiwConnection) SiwCallerReceiveTest.this.client.connection).receiveRole();
			long deadline = System.nanoTime() + DEADLINE.toNanos();
			while (true) {
				WaitingCaller caller = this.waiting;
				if (caller != null && role.holder() == this.thread) {
					return caller;
				}
				assertThat(this.led).as("the silent call still waits").isNotDone();
				assertThat(System.nanoTime() - deadline).as("the silent call leads the receive path").isNegative();
				Thread.onSpinWait();
			}
		}

	}

	// ---- harness ------------------------------------------------------------------------------

	private record Exchange(boolean led, Thread completedOn) {
	}

	/** One Send and the reply to it, waited for as a synchronous call does. */
	private Exchange roundTrip() {
		int target = this.client.replies.get() + 1;
		boolean led = send(() -> this.client.replies.get() >= target, target);
		return new Exchange(led, this.client.completedOn.get(target - 1));
	}

	/**
	 * Posts a Send and waits for {@code done} leading the receive path, or parked as a follower
	 * until reply {@code target} (0 for none) arrives.
	 * @return whether the caller led until {@code done} held
	 */
	private boolean send(BooleanSupplier done, int target) {
		WaitingCaller caller = WaitingCaller.expect();
		this.client.waiter = caller;
		try {
			this.client.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(this.client.outbox, 0, 8)));
			boolean led = caller.receiveUntil(done);
			if (!led && target > 0) {
				awaitReplies(target);
			}
			return led;
		}
		finally {
			this.client.waiter = null;
			caller.end();
		}
	}

	private void awaitReplies(int count) {
		long deadline = System.nanoTime() + DEADLINE.toNanos();
		this.client.owner = Thread.currentThread();
		while (this.client.replies.get() < count) {
			assertThat(System.nanoTime() - deadline).as("reply " + count + " arrives in time").isNegative();
			LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(50));
		}
	}

	/** Round trips until one caller reads its own reply. */
	private void awaitCallersLeading() {
		for (int i = 0; i < 1000; i++) {
			if (roundTrip().led()) {
				return;
			}
		}
		throw new AssertionError("No caller got to read its own reply in 1000 round trips");
	}

	private void connect(RdmaProviderConfig clientSettings) throws Exception {
		this.server = new Peer(RdmaProviders.open("siw"), true);
		this.client = new Peer(RdmaProviders.open("siw", clientSettings), false);
		SiwTestPeer.connect(this.server, this.client, DEADLINE);
	}

	/** One end: a queue pair with receives always posted; the server echoes when asked to. */
	private final class Peer extends SiwTestPeer {

		final boolean echoes;

		final AtomicInteger replies = new AtomicInteger();

		final AtomicInteger received = new AtomicInteger();

		final List<Thread> completedOn = new CopyOnWriteArrayList<>();

		final LinkedBlockingQueue<CompletionStatus> flushed = new LinkedBlockingQueue<>();

		final WorkCompletion[] polled = new WorkCompletion[8];

		volatile WaitingCaller waiter;

		volatile Thread owner;

		Peer(RdmaProvider provider, boolean echoes) {
			super(provider);
			this.echoes = echoes;
		}

		@Override
		void receiveCompletions(CompletionQueue cq) {
			int n;
			while ((n = cq.poll(this.polled)) > 0) {
				for (int i = 0; i < n; i++) {
					WorkCompletion wc = this.polled[i];
					if (wc.status() != CompletionStatus.SUCCESS) {
						this.flushed.add(wc.status());
						continue;
					}
					repost((int) wc.wrId());
					if (this.echoes) {
						// Counted after the echo decision, so a caller that saw the count knows it.
						boolean answer = SiwCallerReceiveTest.this.echo.get();
						long delay = SiwCallerReceiveTest.this.echoDelayMillis;
						if (answer && delay > 0) {
							SiwCallerReceiveTest.this.slowServer.schedule(() -> this.qp
								.postSend(SendWorkRequest.send(2, ScatterGatherEntry.of(this.outbox, 0, 8))), delay,
									TimeUnit.MILLISECONDS);
						}
						else if (answer) {
							this.qp.postSend(SendWorkRequest.send(2, ScatterGatherEntry.of(this.outbox, 0, 8)));
						}
						this.received.incrementAndGet();
						continue;
					}
					this.completedOn.add(Thread.currentThread());
					this.replies.incrementAndGet();
					WaitingCaller caller = this.waiter;
					if (caller != null) {
						caller.outcomeArrived();
					}
					Thread waiting = this.owner;
					if (waiting != null) {
						LockSupport.unpark(waiting);
					}
				}
			}
		}

	}

}

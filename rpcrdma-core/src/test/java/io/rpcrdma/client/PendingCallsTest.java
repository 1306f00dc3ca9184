package io.rpcrdma.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.RpcReply;

/**
 * The table of calls awaiting replies: xids, deadlines, cancellation, connection loss, the
 * bound, and the reuse of ended calls.
 */
class PendingCallsTest {

	private static final String ENDPOINT = "rdma://10.0.0.7:20049";

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final ManualTimer timer = new ManualTimer();

	private final PendingCalls calls = new PendingCalls(ENDPOINT, 4, this.timer, 500);

	private ClientCall register(FutureReply reply) {
		ClientCall call = this.calls.register(100_003, 3, 7, null, TIMEOUT, reply);
		reply.track(call);
		return call;
	}

	private static Throwable failureOf(CompletableFuture<?> future) {
		assertThat(future).isCompletedExceptionally();
		try {
			future.get();
			throw new AssertionError("not failed");
		}
		catch (ExecutionException ex) {
			return ex.getCause();
		}
		catch (InterruptedException | CancellationException ex) {
			return ex;
		}
	}

	@Test
	void aReplyCompletesTheCallWithItsXid() {
		FutureReply reply = new FutureReply();
		ClientCall call = register(reply);

		assertThat(call.xid()).isEqualTo(500);
		assertThat(this.calls.size()).isEqualTo(1);
		ClientCalls.deliver(call, ClientCalls.encoded(RpcReply.success(500), 42));

		assertThat(reply).isCompleted();
		assertThat(reply.join().results().readInt()).isEqualTo(42);
		assertThat(this.calls.size()).isZero();
		assertThat(this.timer.scheduled()).as("deadline cancelled").isZero();
	}

	@Test
	void whoeverIsToldOfAnEndSeesTheCallGoneFromTheTable() {
		List<Integer> sizesSeen = new ArrayList<>();
		List<FutureReply> replies = new ArrayList<>();
		List<ClientCall> registered = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			FutureReply reply = new FutureReply();
			reply.whenComplete((value, failure) -> sizesSeen.add(this.calls.size()));
			replies.add(reply);
			registered.add(register(reply));
		}

		ClientCalls.deliver(registered.get(0), ClientCalls.encoded(RpcReply.success(registered.get(0).xid())));
		registered.get(2).failed(new IllegalStateException("malformed"));
		this.calls.failAll(new IOException("gone"));

		assertThat(sizesSeen).containsExactly(3, 2, 1, 0);
		assertThat(replies.get(1)).isCompletedExceptionally();
	}

	@Test
	void xidsOfPendingCallsAreNotReused() {
		PendingCalls wrapping = new PendingCalls(ENDPOINT, 4, this.timer, 0xffff_ffff);
		ClientCall first = wrapping.register(1, 1, 1, null, TIMEOUT, new FutureReply());
		ClientCall second = wrapping.register(1, 1, 1, null, TIMEOUT, new FutureReply());

		assertThat(first.xid()).isEqualTo(0xffff_ffff);
		assertThat(second.xid()).isZero();
		ClientCalls.deliver(second, ClientCalls.encoded(RpcReply.success(0)));
		ClientCall third = wrapping.register(1, 1, 1, null, TIMEOUT, new FutureReply());
		assertThat(third.xid()).isEqualTo(1);
	}

	@Test
	void theDeadlineFailsTheCallWithCallTimeoutException() {
		FutureReply reply = new FutureReply();
		register(reply);

		this.timer.advance(TIMEOUT.minusNanos(1));
		assertThat(reply).isNotDone();
		this.timer.advance(Duration.ofNanos(1));

		assertThat(failureOf(reply)).isInstanceOf(CallTimeoutException.class)
			.hasMessage("No reply to program 0x186a3 version 3 procedure 7 (xid 0x000001f4) at " + ENDPOINT
					+ " within 30 s; the server may be slow or unreachable, and may still execute the call");
		assertThat(this.calls.size()).isZero();
		assertThat(this.calls.timeouts()).isEqualTo(1);
	}

	@Test
	void aReplyAfterTheDeadlineIsDroppedAndCounted() {
		FutureReply reply = new FutureReply();
		ClientCall call = register(reply);
		this.timer.advance(TIMEOUT);

		ClientCalls.deliver(call, ClientCalls.encoded(RpcReply.success(call.xid())));

		assertThat(this.calls.lateReplies()).isEqualTo(1);
		assertThat(failureOf(reply)).isInstanceOf(CallTimeoutException.class);
	}

	@Test
	void cancellingRemovesTheCallAndALateReplyIsDropped() {
		FutureReply reply = new FutureReply();
		ClientCall call = register(reply);

		assertThat(reply.cancel(false)).isTrue();

		assertThat(this.calls.size()).isZero();
		assertThat(this.timer.scheduled()).isZero();
		ClientCalls.deliver(call, ClientCalls.encoded(RpcReply.success(call.xid())));
		assertThat(this.calls.lateReplies()).isEqualTo(1);
	}

	@Test
	void failAllCompletesEveryCallAtOnceWithConnectionLost() {
		List<FutureReply> pending = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			FutureReply reply = new FutureReply();
			register(reply);
			pending.add(reply);
		}
		IOException cause = new IOException("peer reset the connection");

		assertThat(this.calls.failAll(cause)).isEqualTo(3);

		for (FutureReply reply : pending) {
			assertThat(failureOf(reply)).isInstanceOf(ConnectionLostException.class)
				.hasCause(cause)
				.hasMessageContaining("The connection to " + ENDPOINT + " was lost before program 0x186a3 version 3 procedure 7")
				.hasMessageContaining("peer reset the connection");
		}
		assertThat(this.calls.size()).isZero();
		assertThat(this.timer.scheduled()).isZero();
	}

	@Test
	void afterFailAllNewCallsAreRefusedWithConnectionLost() {
		this.calls.failAll(new IOException("gone"));

		assertThatThrownBy(() -> register(new FutureReply())).isInstanceOf(ConnectionLostException.class)
			.hasMessageContaining(ENDPOINT);
		assertThat(this.calls.size()).isZero();
	}

	@Test
	void tooManyPendingCallsAreRefusedClearly() {
		List<ClientCall> registered = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			registered.add(register(new FutureReply()));
		}

		assertThatThrownBy(() -> register(new FutureReply())).isInstanceOf(TooManyPendingCallsException.class)
			.hasMessageStartingWith("Not sending program 0x186a3 version 3 procedure 7 to " + ENDPOINT + ": 4 calls to "
					+ ENDPOINT + " already await replies, the configured maximum");
		assertThat(this.calls.size()).isEqualTo(4);

		ClientCalls.deliver(registered.get(0), ClientCalls.encoded(RpcReply.success(500)));
		assertThat(register(new FutureReply()).xid()).isEqualTo(504);
	}

	@Test
	void failingOneCallLeavesTheOthers() {
		FutureReply bad = new FutureReply();
		FutureReply good = new FutureReply();
		ClientCall badCall = register(bad);
		register(good);
		IllegalStateException malformed = new IllegalStateException("bad reply");

		badCall.failed(malformed);

		assertThat(failureOf(bad)).isSameAs(malformed);
		assertThat(good).isNotDone();
		assertThat(this.calls.size()).isEqualTo(1);
	}

	@Test
	void anEndedCallIsReusedOnlyOnceTheTransportAndTheCallerAreDoneWithIt() {
		FutureReply first = new FutureReply();
		ClientCall call = register(first);
		ClientCalls.deliver(call, ClientCalls.encoded(RpcReply.success(call.xid()), 7));
		ReceivedReply reply = first.join();

		// The caller still holds the reply: the next call gets another object.
		ClientCall second = register(new FutureReply());
		assertThat(second).isNotSameAs(call);

		reply.release();
		ClientCall third = register(new FutureReply());
		assertThat(third).as("reused once released").isSameAs(call);
		assertThat(third.xid()).isNotEqualTo(500);
	}

	@Test
	void aTimedOutCallIsNotReusedUntilTheTransportHasAnswered() {
		FutureReply timedOut = new FutureReply();
		ClientCall call = register(timedOut);
		this.timer.advance(TIMEOUT);
		assertThat(failureOf(timedOut)).isInstanceOf(CallTimeoutException.class);

		ClientCall next = register(new FutureReply());
		assertThat(next).as("the transport still holds the timed-out call").isNotSameAs(call);

		// The late reply reaches the old call, not a reused one, and is only counted.
		ClientCalls.deliver(call, ClientCalls.encoded(RpcReply.success(500)));
		assertThat(this.calls.lateReplies()).isEqualTo(1);
		assertThat(register(new FutureReply())).isSameAs(call);
	}

	@Test
	void aDeadlineMeantForAnEarlierUseDoesNotEndALaterOne() {
		FutureReply first = new FutureReply();
		ClientCall call = register(first);
		int earlier = call.generation();
		ClientCalls.deliver(call, ClientCalls.encoded(RpcReply.success(call.xid())));
		first.join().release();
		FutureReply second = new FutureReply();
		assertThat(register(second)).isSameAs(call);

		call.expired(earlier);
		assertThat(call.cancel(earlier)).isFalse();

		assertThat(second).isNotDone();
		assertThat(this.calls.size()).isEqualTo(1);
	}

	@Test
	void theSharedTimerFiresADeadline() throws Exception {
		PendingCalls real = new PendingCalls(ENDPOINT, 4, CallTimer.shared());
		FutureReply reply = new FutureReply();
		real.register(1, 1, 1, null, Duration.ofMillis(1), reply);

		assertThatThrownBy(() -> reply.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(CallTimeoutException.class);
		assertThat(real.size()).isZero();
	}

}

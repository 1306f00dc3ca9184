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

import org.junit.jupiter.api.Test;

class PendingCallsTest {

	private static final String ENDPOINT = "rdma://10.0.0.7:20049";

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final ManualTimer timer = new ManualTimer();

	private final PendingCalls<String> calls = new PendingCalls<>(ENDPOINT, 4, this.timer, 500);

	private PendingCall<String> register() {
		return this.calls.register(100_003, 3, 7, TIMEOUT);
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
		PendingCall<String> call = register();

		assertThat(call.xid()).isEqualTo(500);
		assertThat(this.calls.size()).isEqualTo(1);
		assertThat(this.calls.complete(500, "reply")).isTrue();

		assertThat(call.reply()).isCompletedWithValue("reply");
		assertThat(this.calls.size()).isZero();
		assertThat(this.timer.scheduled()).as("deadline cancelled").isZero();
	}

	@Test
	void whoeverSeesACompletionSeesTheCallGoneFromTheTable() {
		List<Integer> sizesSeen = new ArrayList<>();
		PendingCall<String> replied = register();
		PendingCall<String> alsoLost = register();
		PendingCall<String> failed = register();
		PendingCall<String> lost = register();
		for (PendingCall<String> call : List.of(replied, alsoLost, failed, lost)) {
			call.reply().whenComplete((value, failure) -> sizesSeen.add(this.calls.size()));
		}

		this.calls.complete(replied.xid(), "r");
		this.calls.fail(failed.xid(), new IllegalStateException("malformed"));
		this.calls.failAll(new IOException("gone"));

		assertThat(sizesSeen).containsExactly(3, 2, 1, 0);
		assertThat(alsoLost.reply()).isCompletedExceptionally();
	}

	@Test
	void xidsOfPendingCallsAreNotReused() {
		PendingCalls<String> wrapping = new PendingCalls<>(ENDPOINT, 4, this.timer, 0xffff_ffff);
		PendingCall<String> first = wrapping.register(1, 1, 1, TIMEOUT);
		wrapping.register(1, 1, 1, TIMEOUT);

		assertThat(first.xid()).isEqualTo(0xffff_ffff);
		assertThat(wrapping.complete(0, "r")).isTrue();
		PendingCall<String> third = wrapping.register(1, 1, 1, TIMEOUT);
		assertThat(third.xid()).isEqualTo(1);
	}

	@Test
	void theDeadlineFailsTheCallWithCallTimeoutException() {
		PendingCall<String> call = register();

		this.timer.advance(TIMEOUT.minusNanos(1));
		assertThat(call.reply()).isNotDone();
		this.timer.advance(Duration.ofNanos(1));

		assertThat(failureOf(call.reply())).isInstanceOf(CallTimeoutException.class)
			.hasMessage("No reply to program 100003 version 3 procedure 7 (xid 0x000001f4) at " + ENDPOINT
					+ " within 30000 ms; the server may be slow or unreachable, and may still execute the call");
		assertThat(this.calls.size()).isZero();
		assertThat(this.calls.timeouts()).isEqualTo(1);
	}

	@Test
	void aReplyAfterTheDeadlineIsDroppedAndCounted() {
		PendingCall<String> call = register();
		this.timer.advance(TIMEOUT);

		assertThat(this.calls.complete(call.xid(), "late")).isFalse();

		assertThat(this.calls.lateReplies()).isEqualTo(1);
		assertThat(failureOf(call.reply())).isInstanceOf(CallTimeoutException.class);
	}

	@Test
	void cancellingRemovesTheCallAndALateReplyIsDropped() {
		PendingCall<String> call = register();

		assertThat(call.cancel()).isTrue();

		assertThat(this.calls.size()).isZero();
		assertThat(this.timer.scheduled()).isZero();
		assertThat(this.calls.complete(call.xid(), "late")).isFalse();
		assertThat(this.calls.lateReplies()).isEqualTo(1);
	}

	@Test
	void aReplyForAnXidNeverSentIsDroppedAndCounted() {
		register();

		assertThat(this.calls.complete(12345, "stray")).isFalse();
		assertThat(this.calls.lateReplies()).isEqualTo(1);
		assertThat(this.calls.size()).isEqualTo(1);
	}

	@Test
	void failAllCompletesEveryCallAtOnceWithConnectionLost() {
		List<PendingCall<String>> pending = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			pending.add(register());
		}
		IOException cause = new IOException("peer reset the connection");

		assertThat(this.calls.failAll(cause)).isEqualTo(3);

		for (PendingCall<String> call : pending) {
			assertThat(failureOf(call.reply())).isInstanceOf(ConnectionLostException.class)
				.hasCause(cause)
				.hasMessageContaining("The connection to " + ENDPOINT + " was lost before program 100003 version 3 procedure 7")
				.hasMessageContaining("peer reset the connection");
		}
		assertThat(this.calls.size()).isZero();
		assertThat(this.timer.scheduled()).isZero();
	}

	@Test
	void afterFailAllNewCallsAreRefusedWithConnectionLost() {
		this.calls.failAll(new IOException("gone"));

		assertThatThrownBy(this::register).isInstanceOf(ConnectionLostException.class).hasMessageContaining(ENDPOINT);
		assertThat(this.calls.size()).isZero();
	}

	@Test
	void tooManyPendingCallsAreRefusedClearly() {
		for (int i = 0; i < 4; i++) {
			register();
		}

		assertThatThrownBy(this::register).isInstanceOf(TooManyPendingCallsException.class)
			.hasMessageStartingWith("Not sending program 100003 version 3 procedure 7 to " + ENDPOINT + ": 4 calls to "
					+ ENDPOINT + " already await replies, the configured maximum");
		assertThat(this.calls.size()).isEqualTo(4);

		this.calls.complete(500, "r");
		assertThat(register().xid()).isEqualTo(504);
	}

	@Test
	void failingOneCallLeavesTheOthers() {
		PendingCall<String> bad = register();
		PendingCall<String> good = register();
		IllegalStateException malformed = new IllegalStateException("bad reply");

		assertThat(this.calls.fail(bad.xid(), malformed)).isTrue();

		assertThat(failureOf(bad.reply())).isSameAs(malformed);
		assertThat(good.reply()).isNotDone();
		assertThat(this.calls.size()).isEqualTo(1);
	}

	@Test
	void theSharedTimerFiresADeadline() throws Exception {
		PendingCalls<String> real = new PendingCalls<>(ENDPOINT, 4, CallTimer.shared());
		PendingCall<String> call = real.register(1, 1, 1, Duration.ofMillis(1));

		assertThatThrownBy(() -> call.reply().get(10, java.util.concurrent.TimeUnit.SECONDS))
			.hasCauseInstanceOf(CallTimeoutException.class);
		assertThat(real.size()).isZero();
	}

}

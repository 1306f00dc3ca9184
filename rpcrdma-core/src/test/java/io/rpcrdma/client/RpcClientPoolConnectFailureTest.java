package io.rpcrdma.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * What a call waiting for a connection sees when the attempts to open one fail: it fails with
 * {@link ServerUnreachableException} (a {@link PoolExhaustedException}, which says the call was
 * not sent) once as many attempts have failed as the retry policy gives a call, the last
 * failure its cause, rather than waiting out its deadline; with
 * {@code failWaitersOnConnectFailure} (a pool under a balanced caller, which has other servers)
 * at the first failed attempt.
 */
class RpcClientPoolConnectFailureTest {

	private static final Duration DEADLINE = Duration.ofHours(1);

	private static final Duration RECONNECT = Duration.ofMillis(100);

	private final ManualTimer timer = new ManualTimer();

	private final AtomicInteger attempts = new AtomicInteger();

	private RpcClientPool refusingPool(RetryPolicy retry, boolean failWaiters) {
		RpcClientPool.Config config = new RpcClientPool.Config(1, 1, 64,
				new Backoff(RECONNECT, RECONNECT, 1.0, 0.0, new Random(1)), retry, Duration.ZERO).withFailWaitersOnConnectFailure(failWaiters);
		return new RpcClientPool("refusing:20049", () -> {
			this.attempts.incrementAndGet();
			return CompletableFuture.failedFuture(new ConnectException("Connection refused"));
		}, config, this.timer, this.timer::nanoTime);
	}

	private static Throwable failureOf(CompletableFuture<ReceivedReply> call) throws InterruptedException {
		try {
			call.get();
		}
		catch (ExecutionException ex) {
			return ex.getCause();
		}
		throw new AssertionError("the call did not fail");
	}

	@Test
	void aWaitingCallFailsOnceTheRetryPolicysAttemptsToConnectHaveFailed() throws Exception {
		RpcClientPool pool = refusingPool(new RetryPolicy(3, Backoff.exponential(RECONNECT, RECONNECT)), false);
		// The pool's first attempt, made as it opened, failed already: the call counts it.
		CompletableFuture<ReceivedReply> call = pool.call(1, 1, 1, CallBody.NONE, true, DEADLINE);

		this.timer.advance(RECONNECT);
		assertThat(call).as("two of three attempts failed").isNotDone();
		this.timer.advance(RECONNECT);

		assertThat(call).as("the third failed: long before its deadline").isCompletedExceptionally();
		Throwable failure = failureOf(call);
		assertThat(failure).isInstanceOf(ServerUnreachableException.class)
			.isInstanceOf(PoolExhaustedException.class)
			.hasMessageContaining("Could not call program 0x1 version 1 procedure 1 through the client pool for "
					+ "refusing:20049: no connection to refusing:20049 could be opened (3 attempts in a row "
					+ "failed; the call waited 200 ms and was not sent)")
			.hasMessageEndingWith("The last attempt: Connection refused")
			.hasCauseInstanceOf(ConnectException.class);
		assertThat(this.attempts.get()).isEqualTo(3);
	}

	@Test
	void aCallThatComesWhileThePoolFailsToConnectWithoutRetriesFailsAtOnce() throws Exception {
		RpcClientPool pool = refusingPool(RetryPolicy.none(), false);

		CompletableFuture<ReceivedReply> call = pool.call(1, 1, 1, CallBody.NONE, true, DEADLINE);

		assertThat(call).as("the last attempt failed: no retry is allowed").isCompletedExceptionally();
		assertThat(failureOf(call)).isInstanceOf(ServerUnreachableException.class)
			.hasMessageContaining("(1 attempt in a row failed; the call waited 0 s and was not sent)")
			.hasCauseInstanceOf(ConnectException.class);
	}

	@Test
	void withFailWaitersAWaitingCallFailsAtTheFirstFailedAttemptSayingItWasNotSent() throws Exception {
		RpcClientPool pool = refusingPool(new RetryPolicy(5, Backoff.exponential(RECONNECT, RECONNECT)), true);
		CompletableFuture<ReceivedReply> call = pool.call(1, 1, 1, CallBody.NONE, true, DEADLINE);

		assertThat(call).isCompletedExceptionally();
		assertThat(failureOf(call)).isInstanceOf(PoolExhaustedException.class)
			.hasMessageContaining("no connection to refusing:20049 could be opened")
			.hasMessageContaining("was not sent")
			.hasCauseInstanceOf(ConnectException.class);
		assertThat(pool.isUnreachable()).isTrue();
	}

	@Test
	void aCallWhoseDeadlinePassesWhileAnAttemptIsUnderWaySaysSoInWords() throws Exception {
		CompletableFuture<RpcClient> never = new CompletableFuture<>();
		RpcClientPool pool = new RpcClientPool("greeter", "slow:20049", () -> never, RpcClientPool.Config.of(1, 1),
				this.timer);
		CompletableFuture<ReceivedReply> call = pool.call(1, 1, 1, CallBody.NONE, true, Duration.ofMillis(250));

		this.timer.advance(Duration.ofMillis(250));

		assertThat(failureOf(call)).isExactlyInstanceOf(PoolExhaustedException.class)
			.hasMessage("Could not call program 0x1 version 1 procedure 1 through client 'greeter': no connection to "
					+ "slow:20049 opened within 250 ms (an attempt is still under way); the call was not sent");
	}

}

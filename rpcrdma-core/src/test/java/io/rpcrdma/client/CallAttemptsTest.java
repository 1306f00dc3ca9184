package io.rpcrdma.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * The one retry decision, under the rule of a caller that can only send a call again to the same
 * server ({@link RpcClientPool}); balance.BalancedCallAttemptsTest holds the balancer's rule to
 * the same cases.
 */
class CallAttemptsTest {

	private static final RemoteCall CALL = new RemoteCall("rdma://server:20049", 1, 100_003, 3, 6);

	private static final ConnectionLostException LOST = new ConnectionLostException(CALL, new IOException("reset"));

	/** Two attempts in all: one retry. */
	private static final RetryPolicy TWICE = new RetryPolicy(2,
			new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1), 2.0, 0.0, new Random(1)));

	private final CallAttempts attempts = new CallAttempts(CallAttempts.IDEMPOTENT_AFTER_CONNECTION_LOSS);

	@Test
	void aNonIdempotentCallLostWithItsConnectionIsNotSentAgainBecauseItMayHaveRun() {
		this.attempts.start(Duration.ofMinutes(1), false);
		this.attempts.begin();
		assertThat(this.attempts.next(LOST, TWICE)).isEmpty();
	}

	@Test
	void anIdempotentCallLostWithItsConnectionIsSentAgainOnce() {
		this.attempts.start(Duration.ofMinutes(1), true);
		this.attempts.begin();
		assertThat(this.attempts.next(new CompletionException(LOST), TWICE)).contains(Duration.ofMillis(100));
		this.attempts.begin();
		assertThat(this.attempts.next(LOST, TWICE)).as("the retry was the last attempt").isEmpty();
		assertThat(this.attempts.made()).isEqualTo(2);
	}

	@Test
	void aCallThatFoundNoConnectionIsNotSentAgainToTheSamePool() {
		this.attempts.start(Duration.ofMinutes(1), true);
		this.attempts.begin();
		assertThat(this.attempts.next(new PoolExhaustedException("no connection within 1s"), TWICE)).isEmpty();
		assertThat(this.attempts.next(new CallTimeoutException(CALL, Duration.ofSeconds(1)), TWICE)).isEmpty();
	}

	@Test
	void aRetryGoesAtOnceWhereAnotherTargetIsReadyAndIsNotAskedForWhenNoRetryIsAllowed() {
		AtomicInteger asked = new AtomicInteger();
		this.attempts.start(Duration.ofMinutes(1), true);
		this.attempts.begin();
		assertThat(this.attempts.next(LOST, TWICE, () -> asked.incrementAndGet() > 0)).contains(Duration.ZERO);
		this.attempts.start(Duration.ofMinutes(1), false);
		this.attempts.begin();
		assertThat(this.attempts.next(LOST, TWICE, () -> asked.incrementAndGet() > 0)).isEmpty();
		assertThat(asked).hasValue(1);
	}

	@Test
	void noRetryWhoseDelayWouldEndAfterTheDeadlineAndAtLeastAMillisecondForAnAttemptSentAtTheLastMoment() {
		this.attempts.start(Duration.ofMillis(50), true);
		this.attempts.begin();
		assertThat(this.attempts.next(LOST, TWICE)).as("100 ms backoff, 50 ms left").isEmpty();
		this.attempts.start(Duration.ZERO, true);
		this.attempts.begin();
		assertThat(this.attempts.next(LOST, TWICE, () -> true)).as("deadline passed").isEmpty();
		assertThat(this.attempts.remaining()).isEqualTo(Duration.ofMillis(1));
	}

	@Test
	void startingAgainResetsTheAttemptsForTheNextCall() {
		this.attempts.start(Duration.ofMinutes(1), true);
		this.attempts.begin();
		this.attempts.begin();
		assertThat(this.attempts.next(LOST, TWICE)).isEmpty();
		this.attempts.start(Duration.ofMinutes(1), true);
		this.attempts.begin();
		assertThat(this.attempts.next(LOST, TWICE)).isPresent();
		assertThat(this.attempts.remaining()).isGreaterThan(Duration.ofSeconds(50));
	}

}

package io.rpcrdma.client.balance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.rpcrdma.client.Backoff;
import io.rpcrdma.client.CallAttempts;
import io.rpcrdma.client.ConnectionLostException;
import io.rpcrdma.client.PoolExhaustedException;
import io.rpcrdma.client.RemoteCall;
import io.rpcrdma.client.RetryPolicy;

/**
 * The balancer's retry rule ({@link Failures#mayRetry}) in the one retry decision: the same as a
 * pool's for a call lost with its connection, and more for a call that never left this client.
 */
class BalancedCallAttemptsTest {

	private static final RemoteCall CALL = new RemoteCall("rdma://server:20049", 1, 100_003, 3, 6);

	private static final ConnectionLostException LOST = new ConnectionLostException(CALL, new IOException("reset"));

	private static final RetryPolicy TWICE = new RetryPolicy(2,
			new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1), 2.0, 0.0, new Random(1)));

	private final CallAttempts attempts = new CallAttempts(Failures::mayRetry);

	@Test
	void aNonIdempotentCallLostWithItsConnectionIsNotSentToAnotherInstanceBecauseItMayHaveRun() {
		this.attempts.start(Duration.ofMinutes(1), false);
		this.attempts.begin();
		assertThat(this.attempts.next(LOST, TWICE, () -> true)).isEmpty();
	}

	@Test
	void anIdempotentCallLostWithItsConnectionIsSentAgainOnceAtOnceToAnotherInstance() {
		this.attempts.start(Duration.ofMinutes(1), true);
		this.attempts.begin();
		assertThat(this.attempts.next(LOST, TWICE, () -> true)).contains(Duration.ZERO);
		this.attempts.begin();
		assertThat(this.attempts.next(LOST, TWICE, () -> true)).isEmpty();
	}

	@Test
	void aNonIdempotentCallThatNeverLeftMayGoElsewhereWhereAPoolWouldNotSendItAgain() {
		PoolExhaustedException neverSent = new PoolExhaustedException("no connection within 1s");
		this.attempts.start(Duration.ofMinutes(1), false);
		this.attempts.begin();
		assertThat(this.attempts.next(neverSent, TWICE, () -> false)).as("after a backoff: every instance tried")
			.contains(Duration.ofMillis(100));
		CallAttempts pools = new CallAttempts(CallAttempts.IDEMPOTENT_AFTER_CONNECTION_LOSS);
		pools.start(Duration.ofMinutes(1), false);
		pools.begin();
		assertThat(pools.next(neverSent, TWICE, () -> true)).isEmpty();
	}

}

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
 * What a call waiting for a connection sees when the attempts to open one fail: by default it
 * waits through them within its deadline (a lone server may come back); with
 * {@code failWaitersOnConnectFailure} (a pool under a balanced caller, which has other servers)
 * it fails at the first failed attempt with {@link PoolExhaustedException}, which says the
 * call was not sent, so it may go elsewhere.
 */
class RpcClientPoolConnectFailureTest {

	private static final Duration DEADLINE = Duration.ofHours(1);

	private static final Duration RECONNECT = Duration.ofMillis(100);

	private final ManualTimer timer = new ManualTimer();

	private final AtomicInteger attempts = new AtomicInteger();

	private RpcClientPool refusingPool(boolean failWaiters) {
		RpcClientPool.Config config = new RpcClientPool.Config(1, 1, 64,
				new Backoff(RECONNECT, RECONNECT, 1.0, 0.0, new Random(1)), RetryPolicy.none(), Duration.ZERO, failWaiters);
		return new RpcClientPool("refusing:20049", () -> {
			this.attempts.incrementAndGet();
			return CompletableFuture.failedFuture(new ConnectException("Connection refused"));
		}, config, this.timer, this.timer::nanoTime);
	}

	@Test
	void aWaitingCallWaitsThroughFailedConnectionAttemptsByDefault() {
		RpcClientPool pool = refusingPool(false);
		CompletableFuture<ReceivedReply> call = pool.call(1, 1, 1, CallBody.NONE, true, DEADLINE);

		this.timer.advance(RECONNECT.multipliedBy(5));

		assertThat(this.attempts.get()).as("the pool kept trying").isGreaterThan(2);
		assertThat(call).as("still waiting within its deadline").isNotDone();
	}

	@Test
	void withFailWaitersAWaitingCallFailsAtTheFirstFailedAttemptSayingItWasNotSent() throws Exception {
		RpcClientPool pool = refusingPool(true);
		CompletableFuture<ReceivedReply> call = pool.call(1, 1, 1, CallBody.NONE, true, DEADLINE);

		this.timer.advance(RECONNECT);

		assertThat(call).isCompletedExceptionally();
		Throwable failure = null;
		try {
			call.get();
		}
		catch (ExecutionException ex) {
			failure = ex.getCause();
		}
		assertThat(failure).isInstanceOf(PoolExhaustedException.class)
			.hasMessageContaining("No connection to refusing:20049 could be opened (Connection refused)")
			.hasMessageContaining("the call was not sent")
			.hasCauseInstanceOf(ConnectException.class);
		assertThat(pool.isUnreachable()).isTrue();
	}

}

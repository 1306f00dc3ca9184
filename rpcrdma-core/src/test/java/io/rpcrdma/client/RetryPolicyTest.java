package io.rpcrdma.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class RetryPolicyTest {

	private static final RemoteCall CALL = new RemoteCall("rdma://server:20049", 1, 100_003, 3, 6);

	private static final ConnectionLostException LOST = new ConnectionLostException(CALL, new IOException("reset"));

	private static List<Duration> delays(Backoff backoff, int count) {
		List<Duration> delays = new ArrayList<>();
		for (int attempt = 1; attempt <= count; attempt++) {
			delays.add(backoff.delay(attempt));
		}
		return delays;
	}

	@Test
	void withoutJitterDelaysGrowGeometricallyUpToTheMaximum() {
		Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1), 2.0, 0.0, new Random(1));

		assertThat(delays(backoff, 6)).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200),
				Duration.ofMillis(400), Duration.ofMillis(800), Duration.ofSeconds(1), Duration.ofSeconds(1));
	}

	@Test
	void jitterTakesOffAtMostItsFractionAndIsReproducibleWithASeed() {
		Backoff first = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(10), 2.0, 0.5, new Random(42));
		Backoff second = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(10), 2.0, 0.5, new Random(42));

		List<Duration> delays = delays(first, 8);

		assertThat(delays).isEqualTo(delays(second, 8));
		for (int attempt = 1; attempt <= 8; attempt++) {
			long full = 100L << (attempt - 1);
			assertThat(delays.get(attempt - 1)).isBetween(Duration.ofMillis(full / 2), Duration.ofMillis(full));
		}
		assertThat(delays).as("jitter varies the delays").doesNotContain(Duration.ofMillis(100), Duration.ofMillis(200),
				Duration.ofMillis(400));
	}

	@Test
	void theDelaysMatchTheSeededRandomSequence() {
		Random expected = new Random(7);
		Backoff backoff = new Backoff(Duration.ofMillis(10), Duration.ofSeconds(1), 3.0, 1.0, new Random(7));

		assertThat(backoff.delay(1)).isEqualTo(Duration.ofNanos((long) (10_000_000 * (1 - expected.nextDouble()))));
		assertThat(backoff.delay(2)).isEqualTo(Duration.ofNanos((long) (30_000_000 * (1 - expected.nextDouble()))));
	}

	@Test
	void invalidBackoffsAreRefused() {
		Random random = new Random();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1), 2, 0, random));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(2), 0.5, 0, random));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(2), 2, 1.5, random));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(2), 2, 0, random).delay(0));
	}

	@Test
	void onlyIdempotentCallsAreRetriedAndOnlyAfterConnectionLoss() {
		RetryPolicy policy = new RetryPolicy(5,
				new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1), 2.0, 0.0, new Random(1)));
		Duration plenty = Duration.ofMinutes(1);

		assertThat(policy.nextDelay(LOST, true, 1, plenty)).contains(Duration.ofMillis(100));
		assertThat(policy.nextDelay(new CompletionException(LOST), true, 2, plenty)).contains(Duration.ofMillis(200));
		assertThat(policy.nextDelay(LOST, false, 1, plenty)).as("not idempotent").isEmpty();
		assertThat(policy.nextDelay(new CallTimeoutException(CALL, plenty), true, 1, plenty)).isEmpty();
		assertThat(policy.nextDelay(new RemoteSystemErrorException(CALL), true, 1, plenty)).isEmpty();
		assertThat(policy.nextDelay(LOST, true, 5, plenty)).as("attempts exhausted").isEmpty();
	}

	@Test
	void noRetryWhenTheDelayWouldPassTheDeadline() {
		RetryPolicy policy = new RetryPolicy(5,
				new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1), 2.0, 0.0, new Random(1)));

		assertThat(policy.nextDelay(LOST, true, 1, Duration.ofMillis(101))).contains(Duration.ofMillis(100));
		assertThat(policy.nextDelay(LOST, true, 1, Duration.ofMillis(100))).isEmpty();
		assertThat(RetryPolicy.none().nextDelay(LOST, true, 1, Duration.ofMinutes(1))).isEmpty();
	}

	@Test
	void executeRetriesAfterTheBackoffUntilAnAttemptSucceeds() {
		ManualTimer timer = new ManualTimer();
		RetryPolicy policy = new RetryPolicy(5,
				new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1), 2.0, 0.0, new Random(1)));
		AtomicInteger attempts = new AtomicInteger();
		List<Duration> remainingSeen = new ArrayList<>();

		CompletableFuture<String> result = policy.execute((remaining) -> {
			remainingSeen.add(remaining);
			return (attempts.incrementAndGet() < 3) ? CompletableFuture.failedFuture(LOST)
					: CompletableFuture.completedFuture("done");
		}, true, Duration.ofSeconds(10), timer, timer::nanoTime);

		assertThat(attempts).hasValue(1);
		timer.advance(Duration.ofMillis(99));
		assertThat(attempts).hasValue(1);
		timer.advance(Duration.ofMillis(1));
		assertThat(attempts).hasValue(2);
		timer.advance(Duration.ofMillis(200));
		assertThat(attempts).hasValue(3);
		assertThat(result).isCompletedWithValue("done");
		assertThat(remainingSeen).containsExactly(Duration.ofSeconds(10), Duration.ofMillis(9900),
				Duration.ofMillis(9700));
	}

	@Test
	void executeReportsTheLastFailureWhenItGivesUp() {
		ManualTimer timer = new ManualTimer();
		RetryPolicy policy = new RetryPolicy(2,
				new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1), 2.0, 0.0, new Random(1)));
		AtomicInteger attempts = new AtomicInteger();

		CompletableFuture<String> result = policy.execute((remaining) -> {
			attempts.incrementAndGet();
			return CompletableFuture.failedFuture(LOST);
		}, true, Duration.ofSeconds(10), timer, timer::nanoTime);
		timer.advance(Duration.ofSeconds(5));

		assertThat(attempts).hasValue(2);
		assertThat(result).isCompletedExceptionally();
		assertThat(result.handle((value, failure) -> failure).join()).isSameAs(LOST);
	}

}

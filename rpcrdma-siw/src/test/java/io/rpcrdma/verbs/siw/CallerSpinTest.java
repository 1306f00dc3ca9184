package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * A leading caller polls before each wait unless its recent polls missed: each miss doubles
 * the waits that skip the poll, up to {@link CallerSpin#MAX_SKIP}, and a hit ends that; and
 * at most {@link CallerSpin#MAX_POLLING} callers of the JVM poll at once.
 */
class CallerSpinTest {

	private static final Duration POLL = Duration.ofNanos(50_000);

	@Test
	void pollsBeforeEveryWaitWhileRepliesAreCaught() {
		CallerSpin spin = new CallerSpin(POLL);
		for (int i = 0; i < 10; i++) {
			assertThat(spin.pollNanos()).isEqualTo(POLL.toNanos());
			spin.hit();
		}
		assertThat(spin.hits()).isEqualTo(10);
		assertThat(spin.misses()).isZero();
	}

	@Test
	void missesDoubleTheWaitsThatSkipThePollUpToTheLimit() {
		CallerSpin spin = new CallerSpin(POLL);
		List<Integer> skipped = new ArrayList<>();
		for (int miss = 0; miss < 9; miss++) {
			assertThat(spin.pollNanos()).isPositive();
			spin.missed();
			skipped.add(skipsBeforeNextPoll(spin));
		}
		assertThat(skipped).containsExactly(1, 2, 4, 8, 16, 32, 64, 64, 64);
		assertThat(spin.misses()).isEqualTo(9);
	}

	@Test
	void aHitEndsTheBackOff() {
		CallerSpin spin = new CallerSpin(POLL);
		for (int miss = 0; miss < 5; miss++) {
			spin.pollNanos();
			spin.missed();
			skipsBeforeNextPoll(spin);
		}
		spin.hit();
		assertThat(spin.pollNanos()).isPositive();
		spin.missed();
		assertThat(skipsBeforeNextPoll(spin)).as("the first miss after a hit").isEqualTo(1);
	}

	@Test
	void aZeroPollNeverPolls() {
		CallerSpin spin = new CallerSpin(Duration.ZERO);
		for (int i = 0; i < 100; i++) {
			assertThat(spin.pollNanos()).isZero();
		}
	}

	/** Asks until a wait polls again, and says how many did not. */
	private static int skipsBeforeNextPoll(CallerSpin spin) {
		int skipped = 0;
		while (spin.pollNanos() == 0) {
			skipped++;
			assertThat(skipped).as("waits without a poll").isLessThanOrEqualTo(CallerSpin.MAX_SKIP);
		}
		return skipped;
	}

	@Test
	void noMoreThanHalfTheProcessorsPollAtOnce() throws Exception {
		assertThat(CallerSpin.MAX_POLLING)
			.isEqualTo(Math.max(1, Runtime.getRuntime().availableProcessors() / 2));
		int threads = CallerSpin.MAX_POLLING + 7;
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger most = new AtomicInteger();
		CountDownLatch start = new CountDownLatch(1);
		CountDownLatch done = new CountDownLatch(threads);
		for (int t = 0; t < threads; t++) {
			Thread caller = new Thread(() -> {
				try {
					start.await();
					for (int i = 0; i < 20_000; i++) {
						if (!CallerSpin.startPolling()) {
							continue;
						}
						try {
							most.accumulateAndGet(inside.incrementAndGet(), Math::max);
							Thread.onSpinWait();
							inside.decrementAndGet();
						}
						finally {
							CallerSpin.stopPolling();
						}
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				finally {
					done.countDown();
				}
			});
			caller.setDaemon(true);
			caller.start();
		}
		start.countDown();
		assertThat(done.await(1, TimeUnit.MINUTES)).isTrue();
		assertThat(most.get()).isBetween(1, CallerSpin.MAX_POLLING);
	}

	@Test
	void aCallerBeyondTheLimitIsRefusedUntilAPlaceIsGivenBack() {
		int taken = 0;
		try {
			while (taken <= CallerSpin.MAX_POLLING && CallerSpin.startPolling()) {
				taken++;
			}
			assertThat(taken).isBetween(1, CallerSpin.MAX_POLLING);
			boolean beyond = CallerSpin.startPolling();
			if (beyond) {
				CallerSpin.stopPolling();
			}
			assertThat(beyond).isFalse();
			CallerSpin.stopPolling();
			taken--;
			assertThat(CallerSpin.startPolling()).isTrue();
			taken++;
		}
		finally {
			for (int i = 0; i < taken; i++) {
				CallerSpin.stopPolling();
			}
		}
	}

}

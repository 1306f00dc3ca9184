package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A leading caller polls before each wait unless its recent polls missed: each miss doubles
 * the waits that skip the poll, up to {@link CallerSpin#MAX_SKIP}, and a hit ends that.
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

}

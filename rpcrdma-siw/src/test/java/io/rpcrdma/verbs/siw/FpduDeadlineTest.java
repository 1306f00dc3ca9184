package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * The receive path's clock for a frame or message left incomplete: it runs from the first
 * wait inside one, is not restarted by later waits (bytes trickling in), and starts afresh after
 * an FPDU completes. Times are given, not read from a clock.
 */
class FpduDeadlineTest {

	private static final long MS = 1_000_000;

	@Test
	void theClockRunsFromTheFirstWaitInsideAFrameAndLaterWaitsDoNotRestartIt() {
		FpduDeadline deadline = new FpduDeadline(Duration.ofMillis(100));
		assertThat(deadline.remaining(1_000 * MS)).isEqualTo(100 * MS);
		assertThat(deadline.remaining(1_060 * MS)).isEqualTo(40 * MS);
		assertThat(deadline.remaining(1_100 * MS)).isZero();
		assertThat(deadline.remaining(1_250 * MS)).isNegative();
	}

	@Test
	void aCompletedFpduGivesWhatFollowsTheWholeTime() {
		FpduDeadline deadline = new FpduDeadline(Duration.ofMillis(100));
		deadline.remaining(0);
		assertThat(deadline.remaining(90 * MS)).isEqualTo(10 * MS);
		deadline.stop();
		assertThat(deadline.remaining(95 * MS)).isEqualTo(100 * MS);
	}

	@Test
	void theWaitForDataEndsAtTheDeadlineRoundedUpToAMillisecond() {
		assertThat(FpduDeadline.waitMillis(Long.MAX_VALUE, 1000)).isEqualTo(1000);
		assertThat(FpduDeadline.waitMillis(250 * MS, 1000)).isEqualTo(250);
		assertThat(FpduDeadline.waitMillis(250 * MS + 1, 1000)).isEqualTo(251);
		assertThat(FpduDeadline.waitMillis(5_000 * MS, 1000)).isEqualTo(1000);
		assertThat(FpduDeadline.waitMillis(0, 1000)).as("never a zero (endless) select").isEqualTo(1);
		assertThat(FpduDeadline.waitMillis(-7 * MS, 1000)).isEqualTo(1);
	}

}

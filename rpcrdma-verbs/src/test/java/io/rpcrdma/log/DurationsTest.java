package io.rpcrdma.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class DurationsTest {

	@Test
	void wholeUnitsAreWrittenAsPeopleWriteThem() {
		assertThat(Durations.written(Duration.ofSeconds(5))).isEqualTo("5 s");
		assertThat(Durations.written(Duration.ofMillis(250))).isEqualTo("250 ms");
		assertThat(Durations.written(Duration.ofMinutes(2))).isEqualTo("2 min");
		assertThat(Durations.written(Duration.ofHours(1))).isEqualTo("1 h");
		assertThat(Durations.written(Duration.ofDays(3))).isEqualTo("3 d");
		assertThat(Durations.written(Duration.ZERO)).isEqualTo("0 s");
	}

	@Test
	void theRestIsWrittenToThreeSignificantDigitsInTheLargestUnitReached() {
		assertThat(Durations.written(Duration.parse("PT4.937495417S"))).isEqualTo("4.94 s");
		assertThat(Durations.written(Duration.ofNanos(1_500_001))).isEqualTo("1.5 ms");
		assertThat(Durations.written(Duration.ofMillis(61_500))).isEqualTo("61.5 s");
		assertThat(Durations.written(Duration.ofNanos(123_456_789))).isEqualTo("123 ms");
		assertThat(Durations.written(Duration.ofMillis(1234))).as("a setting, exact").isEqualTo("1.234 s");
		assertThat(Durations.written(Duration.ofSeconds(90))).isEqualTo("90 s");
		assertThat(Durations.written(Duration.ofNanos(1500))).isEqualTo("1.5 µs");
		assertThat(Durations.written(Duration.ofNanos(937))).isEqualTo("937 ns");
		assertThat(Durations.written(Duration.ofMillis(-250))).isEqualTo("-250 ms");
	}

	@Test
	void neverIsoEightySixHundredOne() {
		assertThat(Durations.written(Duration.ofSeconds(Long.MAX_VALUE / 2))).doesNotStartWith("PT").endsWith(" d");
	}

}

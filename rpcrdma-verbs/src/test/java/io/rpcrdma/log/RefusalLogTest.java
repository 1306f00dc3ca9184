package io.rpcrdma.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;

import org.junit.jupiter.api.Test;

class RefusalLogTest {

	/** Keeps what is logged. */
	static final class Captured implements System.Logger {

		final List<String> lines = new ArrayList<>();

		@Override
		public String getName() {
			return "captured";
		}

		@Override
		public boolean isLoggable(Level level) {
			return true;
		}

		@Override
		public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
			this.lines.add(level + " " + message);
		}

		@Override
		public void log(Level level, ResourceBundle bundle, String format, Object... params) {
			this.lines.add(level + " " + format);
		}

	}

	@Test
	void everyRefusalIsCountedButAWarningIsLoggedAtMostOncePerInterval() {
		Captured logger = new Captured();
		RefusalLog log = new RefusalLog(logger, Duration.ofHours(1));

		for (int i = 0; i < 5; i++) {
			log.refused((count) -> "refused " + count);
		}

		assertThat(log.count()).isEqualTo(5);
		assertThat(logger.lines).containsExactly("WARNING refused 1");
	}

	@Test
	void aWarningIsLoggedAgainOnceTheIntervalHasPassedWithTheCountSoFar() {
		Captured logger = new Captured();
		RefusalLog log = new RefusalLog(logger, Duration.ZERO);

		log.refused((count) -> "refused " + count);
		log.refused((count) -> "refused " + count);

		assertThat(logger.lines).containsExactly("WARNING refused 1", "WARNING refused 2");
	}

}

package io.rpcrdma.benchmarks.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.siw.SiwSettings;

/**
 * The idle-connection curve of {@link Growth}: its connections come from client JVMs of their
 * own, and a step the server refuses ends the curve with the reason instead of ending the run.
 */
class GrowthIdleCurveTest {

	@Test
	@Timeout(value = 180, unit = TimeUnit.SECONDS)
	void aStepTheServerRefusesEndsTheCurveAndSaysWhy() throws Exception {
		ByteArrayOutputStream progress = new ByteArrayOutputStream();
		// A server that has room for four queue pairs: six idle connections cannot all be had.
		Growth.IdleCurve curve = Growth.idle(List.of(0, 3, 6),
				RdmaProviderConfig.defaults().with(SiwSettings.MAX_QUEUE_PAIRS, "4"),
				new PrintStream(progress, true, StandardCharsets.UTF_8));

		assertThat(curve.samples()).extracting(Growth.IdleSample::connections).containsExactly(0, 3);
		assertThat(curve.samples().get(1).clientThreads()).as("threads of the client JVMs").isPositive();
		assertThat(curve.samples().get(0).clientThreads()).as("no client JVM yet").isZero();
		assertThat(curve.stop()).startsWith("stopped before 6 idle connections: ");
		assertThat(progress.toString(StandardCharsets.UTF_8)).contains("idle curve stopped before 6");
	}

}

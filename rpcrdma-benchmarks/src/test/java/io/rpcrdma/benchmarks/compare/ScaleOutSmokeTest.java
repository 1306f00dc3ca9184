package io.rpcrdma.benchmarks.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * Every path of the scale-out benchmark works: three server processes, a balanced caller over
 * one, two and three of them, and the fixed pool beside the balanced caller. The figures of a
 * smoke run mean nothing and are not checked.
 */
class ScaleOutSmokeTest {

	@Test
	void everyCaseRunsAndTheTablesHaveARowEach() throws Exception {
		ByteArrayOutputStream printed = new ByteArrayOutputStream();
		List<Map<String, Double>> rounds = ScaleOut.run(Pace.SMOKE, new PrintStream(printed, true, StandardCharsets.UTF_8));
		assertThat(rounds).singleElement().satisfies((round) -> {
			assertThat(round).containsOnlyKeys("1 server", "2 servers", "3 servers", "p50 fixed pool", "p50 1 server");
			assertThat(round.values()).allSatisfy((value) -> assertThat(value).isPositive());
		});
		assertThat(printed.toString(StandardCharsets.UTF_8)).contains("| 1 | ", "| 2 | ", "| 3 | ",
				"| fixed RpcClientPool | ", "| BalancedCaller over an InstanceSource | ", "decide nothing");
	}

}

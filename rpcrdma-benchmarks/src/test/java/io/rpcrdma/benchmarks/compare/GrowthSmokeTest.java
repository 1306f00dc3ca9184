package io.rpcrdma.benchmarks.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The growth benchmark's {@code --smoke} mode: a few points of each curve through every
 * contender, a few idle connections to a server process, and every output file written. Its
 * figures say nothing about speed; what it checks is that each point is measured and that
 * idle connections show up in what the server holds.
 */
class GrowthSmokeTest {

	private static final byte[] PNG_SIGNATURE = { (byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };

	@Test
	@Timeout(value = 180, unit = TimeUnit.SECONDS)
	void everyCurveIsMeasuredAndIdleConnectionsShowInWhatTheServerHolds(@TempDir Path out) throws Exception {
		ByteArrayOutputStream progress = new ByteArrayOutputStream();
		Growth.Cases cases = Growth.Cases.of(Pace.SMOKE);

		Growth.Result result = Growth.run(CompareOptions.parse("--smoke", "--out", out.toString()), cases,
				new PrintStream(progress, true, StandardCharsets.UTF_8));

		List<Measurement> results = result.curves().results();
		for (String contender : Growth.CONTENDERS) {
			for (int connections : cases.connections()) {
				assertPositive(results, contender, Measurement.CONNECTIONS, connections, "calls/s");
				assertPositive(results, contender, Measurement.CONNECTIONS, connections, "p99");
				// CPU time is counted in ticks of the operating system: a smoke window may take less than one.
				assertThat(Target.find(results, contender, Measurement.CONNECTIONS, connections, Workload.CPU_PER_CALL))
					.as("%s CPU per call over %d connections", contender, connections)
					.hasValueSatisfying((value) -> assertThat(value).isNotNegative());
			}
			for (int size : cases.sizes()) {
				assertPositive(results, contender, Measurement.BULK_ARGUMENT, size, "MB/s");
				assertPositive(results, contender, Measurement.BULK_RESULT, size, "MB/s");
				assertThat(Target.find(results, contender, Measurement.BULK_RESULT, size, Workload.CPU_PER_MEBIBYTE))
					.as("%s CPU per MiB of %d-byte results", contender, size)
					.hasValueSatisfying((value) -> assertThat(value).isNotNegative());
			}
		}

		List<Growth.IdleSample> idle = result.idle();
		assertThat(idle).extracting(Growth.IdleSample::connections).containsExactlyElementsOf(cases.idle());
		Growth.IdleSample none = idle.get(0);
		Growth.IdleSample most = idle.get(idle.size() - 1);
		// Each connection posts its receives from registered memory on both sides, and the
		// software iWARP provider runs a receive and a transmit thread per connection.
		assertThat(most.serverLeasedBytes()).as("server receives posted").isGreaterThan(none.serverLeasedBytes());
		assertThat(most.serverRegisteredBytes()).isGreaterThanOrEqualTo(most.serverLeasedBytes());
		assertThat(most.clientRegisteredBytes()).isGreaterThan(none.clientRegisteredBytes());
		assertThat(most.serverThreads()).as("server threads").isGreaterThan(none.serverThreads());
		assertThat(most.serverRssBytes()).isPositive();
		assertThat(Growth.perConnection(idle)).hasSize(5);

		assertThat(Files.readAllLines(out.resolve(Growth.CSV))).hasSize(1 + results.size());
		assertThat(Files.readAllLines(out.resolve(Growth.IDLE_CSV))).hasSize(1 + idle.size());
		assertThat(Files.readString(out.resolve(Growth.MARKDOWN))).contains("| 4 |", "| 64 KiB |", "| 64 B |",
				"Per idle connection:", "decide nothing");
		for (String chart : Growth.CHARTS) {
			byte[] png = Files.readAllBytes(out.resolve(chart));
			assertThat(png).as(chart).startsWith(PNG_SIGNATURE);
		}
		assertThat(progress.toString(StandardCharsets.UTF_8)).contains("growth smoke run on", "idle     8 connections");
	}

	private static void assertPositive(List<Measurement> results, String contender, String scenario, long parameter,
			String metric) {
		assertThat(results).filteredOn((m) -> m.contender().equals(contender) && m.scenario().equals(scenario)
				&& m.parameter() == parameter && m.metric().equals(metric))
			.as("%s %s %d %s", contender, scenario, parameter, metric)
			.singleElement()
			.satisfies((m) -> assertThat(m.value()).isPositive());
	}

}

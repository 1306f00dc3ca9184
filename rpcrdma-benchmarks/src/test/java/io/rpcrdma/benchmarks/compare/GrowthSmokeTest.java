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
import org.knowm.xchart.XYChart;

/**
 * The growth benchmark's {@code --smoke} mode: a few points of each curve through every
 * contender, a few idle connections to each contender's server process, and every output file
 * written. Its figures say nothing about speed; what it checks is that each point is measured
 * and that idle connections show up in what each server holds.
 */
class GrowthSmokeTest {

	private static final byte[] PNG_SIGNATURE = { (byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };

	@Test
	@Timeout(value = 300, unit = TimeUnit.SECONDS)
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

		assertThat(result.idle()).extracting(Growth.IdleCurve::contender).containsExactlyElementsOf(Growth.CONTENDERS);
		for (Growth.IdleCurve curve : result.idle()) {
			String contender = curve.contender();
			List<Growth.IdleSample> idle = curve.samples();
			assertThat(curve.stop()).as("%s idle curve stopped", contender).isNull();
			assertThat(idle).as(contender).extracting(Growth.IdleSample::connections).containsExactlyElementsOf(cases.idle());
			Growth.IdleSample none = idle.get(0);
			Growth.IdleSample most = idle.get(idle.size() - 1);
			assertThat(most.serverRssBytes()).as("%s server RSS", contender).isPositive();
			assertThat(most.clientThreads()).as("%s threads of the client JVMs", contender).isPositive();
			assertThat(Growth.perConnection(idle)).hasSize(5);
			switch (contender) {
				case Contenders.SIW -> {
					// Each connection posts its receives from registered memory on both sides.
					assertThat(most.serverLeasedBytes()).as("server receives posted").isGreaterThan(none.serverLeasedBytes());
					assertThat(most.serverRegisteredBytes()).isGreaterThanOrEqualTo(most.serverLeasedBytes());
					assertThat(most.clientRegisteredBytes()).isGreaterThan(none.clientRegisteredBytes());
					// With them all open, a new connection still carries a call (issue #34).
					assertThat(curve.newConnection()).startsWith("a 64-byte call on a new connection succeeded");
				}
				case Contenders.SOCKET -> {
					// The socket server has a thread per accepted connection, and registers nothing.
					assertThat(most.serverThreads() - none.serverThreads()).as("socket server threads")
						.isGreaterThanOrEqualTo(most.connections());
					assertNoRegisteredMemory(idle);
					assertThat(curve.newConnection()).isNull();
				}
				case Contenders.GRPC -> {
					// gRPC's connections share Netty's event loop threads.
					assertThat(most.serverThreads() - none.serverThreads()).as("gRPC server threads")
						.isLessThan(most.connections());
					assertNoRegisteredMemory(idle);
				}
				default -> throw new AssertionError("no idle assertions for " + contender);
			}
		}

		assertThat(Files.readAllLines(out.resolve(Growth.CSV))).hasSize(1 + results.size());
		List<String> idleCsv = Files.readAllLines(out.resolve(Growth.IDLE_CSV));
		assertThat(idleCsv.get(0)).startsWith("contender,connections,");
		for (String contender : Growth.CONTENDERS) {
			assertThat(idleCsv).as("%s lines of %s", contender, Growth.IDLE_CSV)
				.filteredOn((line) -> line.startsWith(contender + ","))
				.hasSameSizeAs(cases.idle());
		}
		assertThat(idleCsv).hasSize(1 + Growth.CONTENDERS.size() * cases.idle().size());
		String markdown = Files.readString(out.resolve(Growth.MARKDOWN));
		assertThat(markdown).contains("| 4 |", "| 64 KiB |", "| 64 B |", "decide nothing");
		for (String contender : Growth.CONTENDERS) {
			assertThat(markdown).contains("#### Idle connections to one " + contender + " server",
					"Per idle " + contender + " connection:");
		}
		for (String chart : Growth.CHARTS) {
			byte[] png = Files.readAllBytes(out.resolve(chart));
			assertThat(png).as(chart).startsWith(PNG_SIGNATURE);
		}
		List<XYChart> idleCharts = Charts.idleCharts(result.idle(), "");
		assertThat(idleCharts.get(0).getSeriesMap().keySet()).containsExactly("socket server RSS",
				"grpc-java server RSS", "rpcrdma-siw server RSS", "rpcrdma-siw server registered");
		assertThat(idleCharts.get(1).getSeriesMap().keySet()).containsExactlyElementsOf(Growth.CONTENDERS);
		assertThat(progress.toString(StandardCharsets.UTF_8)).contains("growth smoke run on", "idle socket         50 connections",
				"idle grpc-java      50 connections", "idle rpcrdma-siw    50 connections");
	}

	private static void assertNoRegisteredMemory(List<Growth.IdleSample> idle) {
		assertThat(idle).allSatisfy((s) -> {
			assertThat(s.serverRegisteredBytes()).isEqualTo(-1);
			assertThat(s.serverLeasedBytes()).isEqualTo(-1);
			assertThat(s.clientRegisteredBytes()).isEqualTo(-1);
		});
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

package io.rpcrdma.benchmarks.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The comparison's {@code --smoke} mode: a few calls of every case through every contender,
 * and every output file written. Proves the paths work, not how fast they are.
 */
class CompareSmokeTest {

	private static final byte[] PNG_SIGNATURE = { (byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };

	@Test
	@Timeout(value = 120, unit = TimeUnit.SECONDS)
	void everyContenderRunsEveryCaseAndTheResultsAreWritten(@TempDir Path out) throws Exception {
		ByteArrayOutputStream progress = new ByteArrayOutputStream();

		// The defaults and the loopback contender, which runs only when named.
		List<String> contenders = new ArrayList<>(Contenders.ALL);
		contenders.add(Contenders.LOOPBACK);
		Run run = Compare.run(CompareOptions.parse("--smoke", "--rounds", "2", "--out", out.toString(), "--contenders",
				String.join(",", contenders)), new PrintStream(progress, true, StandardCharsets.UTF_8));

		List<Measurement> results = run.results();
		for (String contender : contenders) {
			assertMeasured(results, contender, Measurement.LATENCY, Workload.SMALL, "p50");
			assertMeasured(results, contender, Measurement.LATENCY, Workload.SMALL, "p99");
			for (int threads : Compare.THREADS) {
				assertMeasured(results, contender, Measurement.THROUGHPUT, threads, "calls/s");
			}
			for (int size : Compare.BULK_SIZES) {
				assertMeasured(results, contender, Measurement.BULK_ARGUMENT, size, "MB/s");
				assertMeasured(results, contender, Measurement.BULK_RESULT, size, "MB/s");
			}
			assertMeasured(results, contender, Measurement.LATENCY_BUSY, Workload.SMALL, "p50");
			assertMeasured(results, contender, Measurement.THROUGHPUT_BUSY, Compare.BUSY_THREADS, "calls/s");
			// What the calls cost in CPU time, beside what they took.
			assertMeasured(results, contender, Measurement.LATENCY, Workload.SMALL, Workload.CPU_PER_CALL);
			for (int threads : Compare.THREADS) {
				assertMeasured(results, contender, Measurement.THROUGHPUT, threads, Workload.CPU_PER_CALL);
			}
			for (int size : Compare.BULK_SIZES) {
				assertMeasured(results, contender, Measurement.BULK_ARGUMENT, size, Workload.CPU_PER_MEBIBYTE);
				assertMeasured(results, contender, Measurement.BULK_RESULT, size, Workload.CPU_PER_MEBIBYTE);
			}
			assertThat(results).as("%s's CPU time, over all its cases", contender)
				.filteredOn((m) -> m.contender().equals(contender) && m.metric().startsWith("cpu"))
				.anySatisfy((m) -> assertThat(m.value()).isPositive());
			assertThat(Target.find(results, contender, Measurement.LATENCY_BUSY, Workload.SMALL, Workload.CPU_PER_CALL))
				.as("no CPU time on a busy machine, whose spinning threads are the measuring JVM's").isEmpty();
		}
		// The server in a process of its own: its CPU time is counted, and apart.
		// (A smoke run's few calls may take the child less than the operating system's tick of CPU time.)
		assertThat(Target.find(results, Contenders.SIW_PROCESS, Measurement.LATENCY, Workload.SMALL,
				Workload.SERVER_CPU_PER_CALL)).hasValueSatisfying((value) -> assertThat(value).isNotNegative());
		assertThat(Target.find(results, Contenders.SIW_PROCESS, Measurement.LATENCY, Workload.SMALL,
				Workload.CLIENT_CPU_PER_CALL)).hasValueSatisfying((value) -> assertThat(value).isPositive());
		assertThat(Target.find(results, Contenders.SIW, Measurement.LATENCY, Workload.SMALL, Workload.SERVER_CPU_PER_CALL))
			.as("an in-JVM server's time is the JVM's").isEmpty();
		// Thirteen targets for each rpcrdma contender: two latency, one throughput, eight bulk (1 MiB
		// and 64 KiB), one latency on a busy machine, one CPU time per call.
		// The CPU-time target leaves out a round whose reference's CPU time read 0 (a smoke window
		// can get less than one 10 ms tick, see assertMeasured), and is missing if both did.
		List<Target> timed = run.targets().stream().filter((t) -> !t.description().contains("CPU")).toList();
		assertThat(timed).hasSize(36)
			.anySatisfy((t) -> assertThat(t.description()).isEqualTo("64-byte p50 latency: rpcrdma-siw / socket"))
			.allSatisfy((t) -> assertThat(t.rounds()).isEqualTo(2));
		assertThat(run.targets()).hasSizeBetween(36, 39);
		// Two rounds, each with every case; the results are one median per case.
		assertThat(run.rounds()).hasSize(2).allSatisfy((round) -> assertThat(round).hasSameSizeAs(results));
		assertThat(Files.readAllLines(out.resolve(Reports.ROUNDS_CSV))).hasSize(1 + 2 * results.size());
		assertThat(run.machine().cores()).isPositive();

		List<String> csv = Files.readAllLines(out.resolve(Reports.CSV));
		assertThat(csv.get(0)).isEqualTo("scenario,contender,parameter,metric,value,unit,calls");
		assertThat(csv).hasSize(1 + results.size());
		String json = Files.readString(out.resolve(Reports.JSON));
		assertThat(json).contains("\"cores\": " + run.machine().cores(), "\"loadAverageAtEnd\"", "\"targets\"",
				"\"contender\": \"grpc-java\"");
		assertThat(Files.readString(out.resolve(Reports.MARKDOWN))).contains("| rpcrdma-siw |", "### Targets",
				"### On a busy machine",
				"interquartile range", "its figures decide nothing");
		for (String chart : Charts.FILES) {
			byte[] png = Files.readAllBytes(out.resolve(chart));
			assertThat(png).startsWith(PNG_SIGNATURE);
			assertThat(png.length).isGreaterThan(1000);
		}
		assertThat(progress.toString(StandardCharsets.UTF_8)).contains("smoke run on");
	}

	private static void assertMeasured(List<Measurement> results, String contender, String scenario, long parameter,
			String metric) {
		assertThat(results).filteredOn((m) -> m.contender().equals(contender) && m.scenario().equals(scenario)
				&& m.parameter() == parameter && m.metric().equals(metric))
			.as("%s %s %d %s", contender, scenario, parameter, metric)
			.singleElement()
			.satisfies((m) -> {
				if (metric.startsWith("cpu")) {
					// The process's CPU time has the operating system's clock tick (10 ms on
					// Linux) as its step: a smoke window that the scheduler gave less than one
					// tick reads 0. Real runs measure seconds; here every case's value exists.
					assertThat(m.value()).isNotNegative();
				}
				else {
					assertThat(m.value()).isPositive();
				}
				assertThat(m.calls()).isGreaterThanOrEqualTo(Pace.SMOKE.minCalls());
			});
	}

}

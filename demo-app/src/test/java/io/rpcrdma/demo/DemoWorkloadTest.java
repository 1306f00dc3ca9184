package io.rpcrdma.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.rpcrdma.demo.report.ConveyanceTally;
import io.rpcrdma.demo.report.ProgressBar;
import io.rpcrdma.demo.report.ResultsTable;
import io.rpcrdma.demo.store.ObjectInfo;
import io.rpcrdma.demo.store.ObjectStoreService;
import io.rpcrdma.demo.store.StoreLimits;
import io.rpcrdma.demo.workload.OperationStats;
import io.rpcrdma.demo.workload.WorkloadCheckException;
import io.rpcrdma.demo.workload.WorkloadPlan;
import io.rpcrdma.demo.workload.WorkloadResult;
import io.rpcrdma.demo.workload.WorkloadRunner;
import io.rpcrdma.service.BulkData;
import org.junit.jupiter.api.Test;

/**
 * The workload runner, progress bar and results table, against the store in memory.
 */
class DemoWorkloadTest {

	private static final WorkloadPlan SHORT = new WorkloadPlan(Duration.ofSeconds(30), 400, 2, 256 << 10, "w/", 7);

	private final ObjectStoreService store = new ObjectStoreService(new StoreLimits(1 << 20, 64L << 20),
			Clock.systemUTC());

	@Test
	void runsEveryOperationChecksWhatItReadsAndStopsAtTheCallLimit() throws Exception {
		List<Double> fractions = new ArrayList<>();
		WorkloadResult result = new WorkloadRunner(this.store).run(SHORT,
				(fraction, calls, bytes, elapsed) -> fractions.add(fraction));
		assertThat(result.failure()).isNull();
		// A delete is followed by a stat of the deleted key: one issued step, two calls.
		assertThat(result.total().calls()).isBetween(400L, 800L);
		assertThat(result.operations()).extracting(OperationStats::name)
			.containsExactly("put", "get", "read", "stat", "list", "delete", "all");
		for (OperationStats operation : result.operations()) {
			if (!operation.name().equals("get")) {
				assertThat(operation.calls()).as(operation.name()).isPositive();
				assertThat(operation.p99()).as(operation.name()).isGreaterThanOrEqualTo(operation.p50());
			}
		}
		assertThat(result.notFound()).isEqualTo(result.operations().get(5).calls());
		assertThat(result.total().bytes()).isEqualTo(result.operations().get(0).bytes()
				+ result.operations().get(1).bytes() + result.operations().get(2).bytes());
		assertThat(fractions).isNotEmpty().last().isEqualTo(1.0);
		assertThat(this.store.list("w/t0/", "", 256).objects()).isNotEmpty();
		assertThat(this.store.list("w/t2/", "", 256).objects()).isEmpty();
	}

	@Test
	void aStoreThatReturnsOtherBytesStopsTheRunWithTheDifference() throws Exception {
		ObjectStoreService corrupting = new ObjectStoreService(new StoreLimits(1 << 20, 64L << 20), Clock.systemUTC()) {
			@Override
			public BulkData read(String key, long offset, int length) {
				byte[] data = super.read(key, offset, length).toByteArray();
				data[0] ^= 1;
				return BulkData.wrap(data);
			}
		};
		WorkloadResult result = new WorkloadRunner(corrupting).run(SHORT, (fraction, calls, bytes, elapsed) -> {
		});
		assertThat(result.failure()).isInstanceOf(WorkloadCheckException.class).hasMessageContaining("read back with CRC-32C");
		assertThat(result.total().calls()).isLessThan(400);
	}

	@Test
	void aFailingCallStopsTheRunAndIsReported() throws Exception {
		ObjectStoreService failing = new ObjectStoreService(new StoreLimits(1 << 20, 64L << 20), Clock.systemUTC()) {
			@Override
			public ObjectInfo stat(String key) {
				throw new IllegalStateException("disk on fire");
			}
		};
		WorkloadResult result = new WorkloadRunner(failing).run(SHORT, (fraction, calls, bytes, elapsed) -> {
		});
		assertThat(result.failure()).isInstanceOf(IllegalStateException.class).hasMessage("disk on fire");
	}

	@Test
	void progressRedrawsOneLineOnATerminalAndPrintsQuartersElsewhere() {
		ByteArrayOutputStream terminal = new ByteArrayOutputStream();
		ProgressBar bar = new ProgressBar(new PrintStream(terminal, true, StandardCharsets.UTF_8), true);
		bar.progress(0.5, 100, 2_000_000, 1_000_000_000L);
		bar.progress(1.0, 200, 4_000_000, 2_000_000_000L);
		String drawn = terminal.toString(StandardCharsets.UTF_8);
		assertThat(drawn).startsWith("\r[###############...............]  50%").contains("100 calls").contains("2.0 MB/s")
			.contains("\r[##############################] 100%").endsWith(System.lineSeparator());

		ByteArrayOutputStream piped = new ByteArrayOutputStream();
		ProgressBar plain = new ProgressBar(new PrintStream(piped, true, StandardCharsets.UTF_8), false);
		for (int i = 1; i <= 20; i++) {
			plain.progress(i / 20.0, i, i, i * 100_000_000L);
		}
		plain.finish();
		String lines = piped.toString(StandardCharsets.UTF_8);
		assertThat(lines).doesNotContain("\r").doesNotContain("\u001b");
		assertThat(lines.lines()).hasSize(4).allMatch((line) -> line.startsWith("workload "));
	}

	@Test
	void resultsTableShowsRatesLatenciesAndConveyance() throws Exception {
		WorkloadResult result = new WorkloadRunner(this.store).run(SHORT, (fraction, calls, bytes, elapsed) -> {
		});
		String table = ResultsTable.format(result, new ConveyanceTally(500, 120, 480, 200, 3, 7), "siw");
		assertThat(table).contains("calls in").contains("over siw, 2 client threads")
			.containsPattern("call\\s+calls\\s+calls/s\\s+p50\\s+p99\\s+MB/s")
			.containsPattern("\\nall\\s+" + result.total().calls() + "\\s")
			.containsPattern("inline RDMA_MSG sent: calls / replies\\s+500 / 480")
			.containsPattern("Read chunks advertised \\(put contents\\)\\s+120")
			.containsPattern("Write chunks filled \\(get and read contents\\)\\s+200")
			.containsPattern("Reply chunks filled \\(long replies\\)\\s+3")
			.containsPattern("calls that waited for a credit\\s+7")
			.doesNotContain("n/a");
		String remote = ResultsTable.format(result, new ConveyanceTally(500, 120, -1, -1, -1, 0), "siw");
		assertThat(remote).containsPattern("Write chunks filled \\(get and read contents\\)\\s+n/a")
			.contains("counted by the server, which runs in another process");
	}

	@Test
	void conveyanceSinceASnapshotSubtractsAndKeepsServerCountersUnknownWhenTheyAre() {
		ConveyanceTally before = new ConveyanceTally(10, 2, 10, 1, 0, 1);
		assertThat(new ConveyanceTally(15, 4, 15, 3, 1, 1).since(before)).isEqualTo(new ConveyanceTally(5, 2, 5, 2, 1, 0));
		assertThat(new ConveyanceTally(15, 4, -1, -1, -1, 1).since(new ConveyanceTally(10, 2, -1, -1, -1, 0)).serverSeen())
			.isFalse();
	}

	@Test
	void planRefusesSettingsThatCannotRun() {
		org.assertj.core.api.Assertions
			.assertThatIllegalArgumentException()
			.isThrownBy(() -> new WorkloadPlan(Duration.ZERO, 0, 1, 4096, "p/", 1))
			.withMessage("demo.workload.duration must be positive, got PT0S");
		org.assertj.core.api.Assertions
			.assertThatIllegalArgumentException()
			.isThrownBy(() -> new WorkloadPlan(Duration.ofSeconds(1), 0, 0, 4096, "p/", 1))
			.withMessage("demo.workload.threads must be between 1 and 256, got 0");
	}

}

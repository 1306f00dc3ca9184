package io.rpcrdma.benchmarks.attack;

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
 * The under-attack benchmark's {@code --smoke} mode: every attack runs against the server and
 * shows that it reached it (the server dropped its connections, answered its calls, or holds
 * its stalled connections), the server is back to the honest connections after each phase, and
 * the report is written. Its figures say nothing about speed and are not checked.
 */
class UnderAttackSmokeTest {

	@Test
	@Timeout(value = 240, unit = TimeUnit.SECONDS)
	void everyAttackReachesTheServerAndTheReportIsWritten(@TempDir Path out) throws Exception {
		ByteArrayOutputStream progress = new ByteArrayOutputStream();

		UnderAttack.Result result = UnderAttack.run(AttackOptions.parse("--smoke", "--out", out.toString()),
				new PrintStream(progress, true, StandardCharsets.UTF_8));

		List<String> ran = result.attacks().stream().map(UnderAttack.Described::key).toList();
		for (String key : Attacks.KEYS) {
			if (!ran.contains(key)) {
				// Only the context flood may be left out, and only loudly: without an MIT KDC.
				assertThat(key).isEqualTo(Attacks.GSS_CONTEXTS);
				assertThat(result.skipped()).anySatisfy((why) -> assertThat(why).contains(key, "SKIPPED"));
			}
		}
		assertThat(ran).contains(Attacks.INVALIDATE_SINK, Attacks.UNANSWERED_READS, Attacks.REUSED_XIDS,
				Attacks.AUTH_SYS_FLOOD, Attacks.UNOFFERED_STAGS, Attacks.STALLED_FRAMES);

		for (UnderAttack.Described attack : result.attacks()) {
			PhaseResult phase = phase(result, attack.key());
			Attack.Counts counts = phase.attack();
			assertThat(counts.attempts()).as("%s attempts", attack.key()).isPositive();
			assertThat(counts.connections()).as("%s connections", attack.key()).isPositive();
			switch (attack.evidence()) {
				case DROPS -> assertThat(counts.drops()).as("%s connections the server dropped", attack.key())
					.isPositive();
				case REPLIES -> assertThat(counts.replies()).as("%s replies from the server", attack.key()).isPositive();
				case ATTEMPTS -> assertThat(phase.during().connections())
					.as("%s connections the server holds", attack.key())
					.isGreaterThanOrEqualTo(Attacks.STALLED_CONNECTIONS);
			}
			assertThat(phase.settled()).as("%s: the server is back to the honest connections", attack.key()).isTrue();
		}
		PhaseResult reused = phase(result, Attacks.REUSED_XIDS);
		assertThat(reused.attack().errors()).as("replies without the Read chunk the attack needs").isZero();
		PhaseResult pinning = phase(result, Attacks.UNANSWERED_READS);
		assertThat(pinning.peakLocalBulkLeased()).as("bulk memory pinned under the unanswered Reads")
			.isGreaterThanOrEqualTo(UnansweredReadChunks.CHUNK);
		PhaseResult flood = phase(result, Attacks.AUTH_SYS_FLOOD);
		// The flooders' colliding XIDs reach the duplicate request cache as calls of their own
		// (an entry is owned by the requester's address with port), so they execute.
		assertThat(flood.attack().replies()).as("flood calls executed").isPositive();

		for (PhaseResult each : result.phases()) {
			assertThat(each.baselineFailures()).as("honest failures before %s started", each.phase()).isZero();
			assertThat(each.baseline()).extracting(HonestLoad.Figures::kind).contains(HonestLoad.Kind.SMALL,
					HonestLoad.Kind.ARGUMENT, HonestLoad.Kind.RESULT);
			assertThat(each.honest()).extracting(HonestLoad.Figures::kind)
				.containsExactlyElementsOf(each.baseline().stream().map(HonestLoad.Figures::kind).toList());
			assertThat(each.attack().cores()).as("%s CPU share", each.phase()).isPositive();
		}

		String markdown = Files.readString(out.resolve(UnderAttackReport.MARKDOWN));
		assertThat(markdown).contains("decide nothing", "| 64 B echo |", "| 1 MiB argument |", "| 1 MiB result |");
		for (String key : ran) {
			assertThat(markdown).contains("| " + key + " |");
		}
		int kinds = result.phases().get(0).baseline().size();
		assertThat(Files.readAllLines(out.resolve(UnderAttackReport.CSV))).hasSize(1 + ran.size() * kinds);
		assertThat(Files.readAllLines(out.resolve(UnderAttackReport.ROUNDS_CSV)))
			.hasSize(1 + 2 * result.phases().size() * kinds);
		assertThat(progress.toString(StandardCharsets.UTF_8)).contains("under-attack smoke run on");
	}

	private static PhaseResult phase(UnderAttack.Result result, String key) {
		return result.phases()
			.stream()
			.filter((p) -> p.phase().equals(key))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no phase " + key));
	}

}

package io.rpcrdma.benchmarks.attack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

import io.rpcrdma.benchmarks.compare.Machine;
import io.rpcrdma.benchmarks.compare.Rounds;

/**
 * Writes an under-attack run as {@code under-attack.md} (the tables), {@code under-attack.csv}
 * (per attack and kind of honest call: medians and ratios) and {@code under-attack-rounds.csv}
 * (every phase of every round, as measured).
 */
final class UnderAttackReport {

	static final String MARKDOWN = "under-attack.md";

	static final String CSV = "under-attack.csv";

	static final String ROUNDS_CSV = "under-attack-rounds.csv";

	/** The target: honest calls/s under attack at least this share of the baseline. */
	static final double TARGET = 0.8;

	private UnderAttackReport() {
	}

	/**
	 * One attack's effect on one kind of honest call, over the rounds.
	 * @param attack the attack's key
	 * @param kind the honest call
	 * @param baseline the median calls/s alone, just before the attack
	 * @param attacked the median calls/s under attack
	 * @param ratio the median of the per-round ratios attacked / alone
	 * @param lowest the lowest per-round ratio
	 * @param highest the highest
	 * @param baselineP99 the median p99 alone (µs)
	 * @param attackedP99 the median p99 under attack (µs)
	 * @param failures honest calls of this kind that failed under this attack, all rounds
	 */
	record Effect(String attack, HonestLoad.Kind kind, double baseline, double attacked, double ratio, double lowest,
			double highest, double baselineP99, double attackedP99, long failures) {

		/** @return whether the target is met: the median ratio at least {@link #TARGET}, no failure */
		boolean met() {
			return this.ratio >= TARGET && this.failures == 0;
		}

	}

	/**
	 * @param result the run
	 * @return every attack's effect on every kind of honest call
	 */
	static List<Effect> effects(UnderAttack.Result result) {
		List<PhaseResult> phases = result.phases();
		List<HonestLoad.Kind> kinds = phases.get(0).baseline().stream().map(HonestLoad.Figures::kind).toList();
		List<Effect> effects = new ArrayList<>();
		for (UnderAttack.Described attack : result.attacks()) {
			for (HonestLoad.Kind kind : kinds) {
				List<PhaseResult> attacked = phases.stream().filter((p) -> p.phase().equals(attack.key())).toList();
				if (attacked.isEmpty()) {
					continue;
				}
				double[] base = new double[attacked.size()];
				double[] under = new double[attacked.size()];
				double[] ratios = new double[attacked.size()];
				double[] baseP99 = new double[attacked.size()];
				double[] underP99 = new double[attacked.size()];
				long failures = 0;
				for (int i = 0; i < attacked.size(); i++) {
					PhaseResult phase = attacked.get(i);
					base[i] = phase.baselineFigures(kind).callsPerSecond();
					under[i] = phase.figures(kind).callsPerSecond();
					ratios[i] = under[i] / base[i];
					baseP99[i] = phase.baselineFigures(kind).p99Micros();
					underP99[i] = phase.figures(kind).p99Micros();
					failures += phase.figures(kind).failures();
				}
				effects.add(new Effect(attack.key(), kind, Rounds.quantile(base, 0.5), Rounds.quantile(under, 0.5),
						Rounds.quantile(ratios, 0.5), Rounds.quantile(ratios, 0), Rounds.quantile(ratios, 1),
						Rounds.quantile(baseP99, 0.5), Rounds.quantile(underP99, 0.5), failures));
			}
		}
		return effects;
	}

	/**
	 * @param directory where the files go (created if missing)
	 * @param result the run
	 * @throws IOException if a file cannot be written
	 */
	static void write(Path directory, UnderAttack.Result result) throws IOException {
		Files.createDirectories(directory);
		Files.writeString(directory.resolve(MARKDOWN), markdown(result), StandardCharsets.UTF_8);
		Files.writeString(directory.resolve(CSV), csv(result), StandardCharsets.UTF_8);
		Files.writeString(directory.resolve(ROUNDS_CSV), roundsCsv(result), StandardCharsets.UTF_8);
	}

	static String csv(UnderAttack.Result result) {
		StringBuilder out = new StringBuilder(
				"attack,honest_call,baseline_calls_per_s,attacked_calls_per_s,ratio_median,ratio_min,ratio_max,baseline_p99_us,attacked_p99_us,honest_failures,target_met\n");
		for (Effect e : effects(result)) {
			out.append(e.attack()).append(',').append(e.kind().label()).append(',').append(decimal(e.baseline()))
				.append(',').append(decimal(e.attacked())).append(',').append(decimal(e.ratio())).append(',')
				.append(decimal(e.lowest())).append(',').append(decimal(e.highest())).append(',')
				.append(decimal(e.baselineP99())).append(',').append(decimal(e.attackedP99())).append(',')
				.append(e.failures()).append(',').append(e.met()).append('\n');
		}
		return out.toString();
	}

	static String roundsCsv(UnderAttack.Result result) {
		StringBuilder out = new StringBuilder(
				"round,attack,attack_running,honest_call,calls_per_s,p99_us,calls,honest_failures,attack_attempts,attack_connections,attack_drops,attack_replies,attack_errors,attack_cores\n");
		for (PhaseResult p : result.phases()) {
			Attack.Counts c = p.attack();
			for (boolean running : List.of(false, true)) {
				for (HonestLoad.Figures f : running ? p.honest() : p.baseline()) {
					out.append(p.round()).append(',').append(p.phase()).append(',').append(running).append(',')
						.append(f.kind().label()).append(',').append(decimal(f.callsPerSecond())).append(',')
						.append(decimal(f.p99Micros())).append(',').append(f.calls()).append(',').append(f.failures())
						.append(',');
					if (running) {
						out.append(c.attempts()).append(',').append(c.connections()).append(',').append(c.drops())
							.append(',').append(c.replies()).append(',').append(c.errors()).append(',')
							.append(decimal(c.cores()));
					}
					else {
						out.append(",,,,,");
					}
					out.append('\n');
				}
			}
		}
		return out.toString();
	}

	static String markdown(UnderAttack.Result result) {
		Machine m = result.machine();
		StringBuilder out = new StringBuilder();
		long rounds = result.phases().stream().mapToInt(PhaseResult::round).distinct().count();
		out.append(String.format(Locale.ROOT,
				"Under-attack run `%s` started %s: %d cores (%s), %s; load average %s at start, %s at end; %s; %d %s, figures are medians of the rounds.%n%n",
				result.pace().name(), m.startedAt(), m.cores(), m.cpu(), m.jdk(), number(m.loadAtStart()),
				number(m.loadAtEnd()),
				(m.stealFraction() < 0) ? "steal unknown"
						: String.format(Locale.ROOT, "%.1f %% of CPU time stolen", 100 * m.stealFraction()),
				rounds, (rounds == 1) ? "round" : "rounds"));
		if (result.pace() != AttackPace.FULL) {
			out.append("**A ").append(result.pace().name())
				.append(" run: its figures are rough and decide nothing; record a full run.**\n\n");
		}
		out.append(String.format(Locale.ROOT,
				"One server (library defaults, reply data in Read chunks, operation timeout %s) over software iWARP on 127.0.0.1; "
						+ "%d honest client threads per kind of call, one connection per kind, library defaults. Each phase has "
						+ "a server and honest clients of its own: every kind is measured alone (%s of warm-up, %s measured), "
						+ "then the attack starts, runs %s, and every kind is measured again beside it. "
						+ "Target: honest calls/s under attack ≥ %.1f× alone, and 0 honest failures. The attacker runs in the same JVM "
						+ "on the same cores as the server and the honest clients; its CPU share is in the second table.%n%n",
				(result.pace().operationTimeout() == null) ? "30 s (default)" : result.pace().operationTimeout(),
				UnderAttack.HONEST_THREADS, result.pace().warmup(), result.pace().measure(), result.pace().settle(), TARGET));
		for (String skipped : result.skipped()) {
			out.append("**").append(skipped).append("**\n\n");
		}
		out.append("#### Honest calls with each attack: calls/s (ratio to the same server alone just before [lowest–highest round]), p99 µs\n\n");
		out.append("| attack | honest call | alone calls/s | under attack | ratio [range] | p99 alone | p99 under attack | honest failures | target |\n");
		out.append("|---|---|---|---|---|---|---|---|---|\n");
		for (Effect e : effects(result)) {
			out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %.2f [%.2f–%.2f] | %s | %s | %d | %s |%n", e.attack(),
					e.kind().label(), number(e.baseline()), number(e.attacked()), e.ratio(), e.lowest(), e.highest(),
					number(e.baselineP99()), number(e.attackedP99()), e.failures(), e.met() ? "met" : "**missed**"));
		}
		out.append("\n#### What each attack did (all rounds) and what the server held while it ran (median of the rounds)\n\n");
		out.append("Server figures are taken at the end of the measurement, the attack still running: connections open, local "
				+ "bulk memory leased, bulk share waits of the connections then open; the duplicate request cache's evictions "
				+ "and checksum mismatches are counted over the phase, honest calls' included. Every phase has a server of its own; "
				+ "afterwards (the attack stopped, its connections gone) the server's registered memory, and whether it can "
				+ "still lease a " + AttackedServer.UNUSED_CLASS_LABEL + ", a size class no phase uses (the pool keeps "
				+ "the slabs an attack made it register).\n\n");
		out.append("| attack | what it does | attempts | connections | dropped or refused | replies | attacker errors | server connections | local bulk leased | bulk share waits | DRC evictions / checksum mismatches | GSS contexts | attacker CPU (cores) | afterwards: registered | afterwards: new size class leasable |\n");
		out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
		for (UnderAttack.Described attack : result.attacks()) {
			List<PhaseResult> ran = result.phases().stream().filter((p) -> p.phase().equals(attack.key())).toList();
			if (ran.isEmpty()) {
				continue;
			}
			long attempts = ran.stream().mapToLong((p) -> p.attack().attempts()).sum();
			long connections = ran.stream().mapToLong((p) -> p.attack().connections()).sum();
			long drops = ran.stream().mapToLong((p) -> p.attack().drops()).sum();
			long replies = ran.stream().mapToLong((p) -> p.attack().replies()).sum();
			long errors = ran.stream().mapToLong((p) -> p.attack().errors()).sum();
			out.append(String.format(Locale.ROOT,
					"| %s | %s | %,d | %,d | %,d | %,d | %,d | %s | %s | %s | %s / %s | %s | %.2f | %s | %d of %d rounds |%n", attack.key(),
					attack.description(), attempts, connections, drops, replies, errors,
					median(ran, (p) -> p.during().connections()),
					mebibytes(median(ran, (p) -> p.during().localBulkLeasedBytes())),
					median(ran, (p) -> p.during().transport().bulkShareWaits()),
					median(ran, (p) -> p.after().drc().evictions() - p.before().drc().evictions()),
					median(ran, (p) -> p.after().drc().checksumMismatches() - p.before().drc().checksumMismatches()),
					median(ran, (p) -> p.during().gssContexts()),
					Rounds.quantile(ran.stream().mapToDouble((p) -> p.attack().cores()).toArray(), 0.5), mebibytes(median(ran, (p) -> p.after().registeredBytes())),
					ran.stream().filter(PhaseResult::leasableAfter).count(), ran.size()));
		}
		out.append("\nHow the server ended or refused each attacker (the first time in each round):\n\n");
		for (UnderAttack.Described attack : result.attacks()) {
			List<String> ends = result.phases()
				.stream()
				.filter((p) -> p.phase().equals(attack.key()) && p.attack().firstDrop() != null)
				.map((p) -> general(p.attack().firstDrop()))
				.distinct()
				.toList();
			out.append("- ").append(attack.key()).append(": ")
				.append(ends.isEmpty() ? "never" : String.join("; ", ends).replace('|', '/'))
				.append('\n');
		}
		long failingAlone = result.phases().stream().mapToLong(PhaseResult::baselineFailures).sum();
		if (failingAlone > 0) {
			out.append(String.format(Locale.ROOT, "%n**%d honest call(s) failed with no attack running.**%n", failingAlone));
		}
		long unsettled = result.phases().stream().filter((p) -> !p.settled()).count();
		if (unsettled > 0) {
			out.append(String.format(Locale.ROOT,
					"%n**%d phase(s) ended with the server still holding attack connections or bulk memory after the settle deadline.**%n",
					unsettled));
		}
		List<String> firstErrors = result.phases()
			.stream()
			.flatMap((p) -> p.honest().stream())
			.filter((f) -> f.firstFailure() != null)
			.map((f) -> f.kind().label() + ": " + general(f.firstFailure()))
			.distinct()
			.limit(10)
			.toList();
		if (!firstErrors.isEmpty()) {
			out.append("\nHonest failures seen (the first of each phase, alike ones once):\n\n");
			firstErrors.forEach((e) -> out.append("- `").append(e.replace('`', '\'')).append("`\n"));
		}
		return out.toString();
	}

	/**
	 * @param message an exception's description
	 * @return the same without what differs from one phase to the next (ports, XIDs), so that
	 * alike failures are listed once
	 */
	static String general(String message) {
		return message.replaceAll("127\\.0\\.0\\.1:\\d+", "127.0.0.1:port")
			.replaceAll("XID 0x[0-9a-f]+", "XID x")
			.replaceAll("xid=-?\\d+", "xid=x");
	}

	private static long median(List<PhaseResult> phases, ToLongFunction<PhaseResult> figure) {
		double[] values = phases.stream().mapToDouble((p) -> figure.applyAsLong(p)).toArray();
		return Math.round(Rounds.quantile(values, 0.5));
	}

	private static String mebibytes(long bytes) {
		return String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
	}

	/**
	 * @param value a figure
	 * @return three significant digits, at most two decimals
	 */
	static String number(double value) {
		if (Double.isNaN(value)) {
			return "–";
		}
		if (value < 0) {
			return "n/a";
		}
		if (value >= 100) {
			return String.format(Locale.ROOT, "%,.0f", value);
		}
		if (value >= 10) {
			return String.format(Locale.ROOT, "%.1f", value);
		}
		return String.format(Locale.ROOT, "%.2f", value);
	}

	private static String decimal(double value) {
		return Double.isFinite(value) ? String.format(Locale.ROOT, "%.3f", value) : "";
	}

}

package io.rpcrdma.benchmarks.attack;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Runs one phase on a server and honest clients of its own: starts its attack, lets it take
 * hold, measures every kind of honest call in turn while it runs, stops it, waits for the
 * server to be back to the honest connections alone, and looks whether the server can still
 * lease what no phase had used (its aftermath).
 * <p>
 * A new server per phase keeps the phases independent: the server's memory pool keeps the
 * slabs an attack made it register, so an attack run earlier would otherwise change what a
 * later phase measures (the aftermath column shows what it leaves).
 */
final class PhaseRunner {

	/** The longest an attack may take to make its first attempt. */
	private static final Duration FIRST_ATTEMPT = Duration.ofSeconds(30);

	/** The longest the smoke run waits for an attack to show it reached the server. */
	private static final Duration EVIDENCE = Duration.ofSeconds(30);

	/** The longest the server may take to forget an attack's connections and memory. */
	private static final Duration SETTLE = Duration.ofSeconds(60);

	private final Supplier<AttackedServer> servers;

	private final Function<AttackedServer, HonestLoad> clients;

	private final AttackPace pace;

	private final PrintStream progress;

	private AttackedServer server;

	private HonestLoad honest;

	/** The most local bulk memory the server held at the end of any kind's window of this phase. */
	private long peakLocalBulk;

	/**
	 * @param servers starts a server for a phase
	 * @param clients connects the honest clients to it
	 * @param pace how long each phase lasts
	 * @param progress where each figure is reported as it is measured
	 */
	PhaseRunner(Supplier<AttackedServer> servers, Function<AttackedServer, HonestLoad> clients, AttackPace pace,
			PrintStream progress) {
		this.servers = servers;
		this.clients = clients;
		this.pace = pace;
		this.progress = progress;
	}

	/**
	 * @param round the round, from 1
	 * @param attack the attack, or {@code null} for the baseline
	 * @return the phase's figures
	 * @throws InterruptedException if interrupted
	 */
	PhaseResult run(int round, Attack attack) throws InterruptedException {
		this.server = this.servers.get();
		try {
			this.honest = this.clients.apply(this.server);
			try {
				return runOn(round, attack);
			}
			finally {
				this.honest.close();
			}
		}
		finally {
			this.server.close();
		}
	}

	private PhaseResult runOn(int round, Attack attack) throws InterruptedException {
		String phase = (attack == null) ? PhaseResult.BASELINE : attack.key();
		// The attack's own baseline, on the same server just before it: on a shared machine
		// the neighbours' load moves between phases, so each ratio pairs neighbouring windows.
		List<HonestLoad.Figures> baseline = measure(round, phase, "alone");
		AttackedServer.Snapshot before = this.server.snapshot();
		List<HonestLoad.Figures> figures = baseline;
		this.peakLocalBulk = 0;
		if (attack != null) {
			attack.start(this.server.address());
			await(attack, (c) -> c.attempts() > 0, FIRST_ATTEMPT, "its first attempt");
			TimeUnit.NANOSECONDS.sleep(this.pace.settle().toNanos());
			figures = measure(round, phase, "attacked");
		}
		AttackedServer.Snapshot during = this.server.snapshot();
		Attack.Counts counts = Attack.Counts.NONE;
		if (attack != null) {
			if (this.pace.awaitEvidence()) {
				await(attack, attack.evidence()::shownBy, EVIDENCE, "its evidence (" + attack.evidence() + ")");
			}
			attack.stop();
			// Counted once stopped: each thread adds its CPU time as it ends.
			counts = attack.counts();
			this.progress.printf(Locale.ROOT,
					"round %d %-17s attack: %d attempts, %d connections, %d dropped%s, %d replies, %d errors, %.2f cores%s%n",
					round, phase, counts.attempts(), counts.connections(), counts.drops(),
					(counts.firstDrop() != null) ? " (first: " + counts.firstDrop() + ")" : "", counts.replies(),
					counts.errors(), counts.cores(),
					(counts.firstError() != null) ? " (first: " + counts.firstError() + ")" : "");
		}
		boolean settled = settle();
		if (!settled) {
			AttackedServer.Snapshot now = this.server.snapshot();
			this.progress.printf(Locale.ROOT,
					"round %d %-17s the server still holds %d connections and %d bytes of local bulk memory after %s%n",
					round, phase, now.connections(), now.localBulkLeasedBytes(), SETTLE);
		}
		boolean leasable = this.server.canLeaseUnusedClass();
		if (!leasable) {
			this.progress.printf(Locale.ROOT, "round %d %-17s afterwards the server cannot lease a new %s%n", round, phase,
					AttackedServer.UNUSED_CLASS_LABEL);
		}
		return new PhaseResult(round, phase, baseline, figures, counts, before, during, this.server.snapshot(), settled,
				leasable, Math.max(this.peakLocalBulk, during.localBulkLeasedBytes()));
	}

	private List<HonestLoad.Figures> measure(int round, String phase, String how) throws InterruptedException {
		List<HonestLoad.Figures> figures = new ArrayList<>();
		for (HonestLoad.Kind kind : this.honest.kinds()) {
			HonestLoad.Figures f = this.honest.run(kind, this.pace.warmup(), this.pace.measure());
			figures.add(f);
			// Sampled after each kind: an attacker the server ends within the phase still shows.
			this.peakLocalBulk = Math.max(this.peakLocalBulk, this.server.snapshot().localBulkLeasedBytes());
			this.progress.printf(Locale.ROOT, "round %d %-17s %-8s %-17s %10.1f calls/s  p99 %10.1f µs  %6d failures%s%n",
					round, phase, how, kind.label(), f.callsPerSecond(), f.p99Micros(), f.failures(),
					(f.firstFailure() != null) ? " (first: " + f.firstFailure() + ")" : "");
		}
		return figures;
	}

	private static void await(Attack attack, Predicate<Attack.Counts> shown, Duration deadline, String what)
			throws InterruptedException {
		long end = System.nanoTime() + deadline.toNanos();
		while (!shown.test(attack.counts())) {
			if (System.nanoTime() > end) {
				throw new IllegalStateException("The attack " + attack.key() + " did not show " + what + " within "
						+ deadline + ": " + attack.counts());
			}
			TimeUnit.MILLISECONDS.sleep(10);
		}
	}

	/** Waits until only the honest connections are open and no local bulk memory is leased. */
	private boolean settle() throws InterruptedException {
		long end = System.nanoTime() + SETTLE.toNanos();
		while (true) {
			AttackedServer.Snapshot now = this.server.snapshot();
			if (now.connections() == this.honest.connections() && now.localBulkLeasedBytes() == 0) {
				return true;
			}
			if (System.nanoTime() > end) {
				return false;
			}
			TimeUnit.MILLISECONDS.sleep(20);
		}
	}

}

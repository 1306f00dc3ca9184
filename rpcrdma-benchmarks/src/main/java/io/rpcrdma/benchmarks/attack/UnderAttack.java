package io.rpcrdma.benchmarks.attack;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.rpcrdma.benchmarks.compare.Machine;
import io.rpcrdma.kerberos.MitKdc;
import io.rpcrdma.oncrpc.gss.KerberosCredentials;
import io.rpcrdma.server.security.RpcSecGssServer;
import io.rpcrdma.transport.PeerLimits;

/**
 * Honest calls with and without each hostile peer of issue #33 running alongside, in one run on
 * one machine (a benchmark, not a timed test): an {@link AttackedServer} with the library's
 * defaults over software iWARP on 127.0.0.1, {@link HonestLoad} threads making 64-byte calls,
 * 1 MiB arguments and 1 MiB results through the service layer (and new RPCSEC_GSS contexts when
 * an MIT KDC runs), alone and then beside each {@link Attack} in turn, each phase on a server of
 * its own. Phases repeat in rounds; figures are medians of the rounds, and each attack's effect
 * is the median of its per-round ratio to the figures alone just before it, with their range. Target: honest
 * calls/s under attack at least {@link UnderAttackReport#TARGET} of the baseline, and no honest
 * call failing.
 * <p>
 * Writes {@code under-attack.md}, {@code under-attack.csv} and {@code under-attack-rounds.csv}
 * into {@code docs/benchmarks/} (or {@code --out}). About thirteen minutes; {@code --quick}
 * about four, {@code --smoke} under a minute.
 * <pre>
 * java -cp rpcrdma-benchmarks/target/rpcrdma-benchmarks.jar io.rpcrdma.benchmarks.attack.UnderAttack [--quick | --smoke] [--rounds N]
 * </pre>
 */
public final class UnderAttack {

	/** Honest client threads per kind of call. */
	static final int HONEST_THREADS = 4;

	/** Held, so that the level set on it is not lost with a collected logger. */
	private static final Logger LIBRARY_LOG = Logger.getLogger("io.rpcrdma");

	private UnderAttack() {
	}

	/**
	 * A finished run.
	 * @param pace how long each phase ran
	 * @param machine where, with the load at start and end
	 * @param phases every phase of every round, in the order run
	 * @param attacks the attacks that ran, in order, with their descriptions
	 * @param skipped attacks left out, each with why
	 */
	record Result(AttackPace pace, Machine machine, List<PhaseResult> phases, List<Described> attacks,
			List<String> skipped) {
	}

	/**
	 * An attack's key and description, for the report.
	 * @param key the key
	 * @param description what it does
	 * @param evidence what shows that it reached the server
	 */
	record Described(String key, String description, Attack.Evidence evidence) {
	}

	/**
	 * @param args {@code [--quick | --smoke] [--rounds N] [--out DIR] [--attacks a,b]}
	 */
	public static void main(String[] args) {
		AttackOptions options;
		try {
			options = AttackOptions.parse(args);
		}
		catch (IllegalArgumentException wrong) {
			System.err.println(wrong.getMessage());
			System.exit(2);
			return;
		}
		try {
			Result result = run(options, System.out);
			System.out.println();
			System.out.println(UnderAttackReport.markdown(result));
			System.out.println("Written to " + options.output().toAbsolutePath());
		}
		catch (Exception failed) {
			System.err.println("The under-attack run stopped: " + failed);
			failed.printStackTrace();
			System.exit(1);
			return;
		}
		// Attack, Kerberos and provider threads are stopped; exit in case a library left one.
		System.exit(0);
	}

	/**
	 * Runs every phase of every round and writes the report.
	 * @param options what to run and where to write
	 * @param progress where each figure is reported as it is measured
	 * @return the run
	 * @throws Exception if the server, an honest client or an attack fails to run
	 */
	static Result run(AttackOptions options, PrintStream progress) throws Exception {
		// Every attack makes the library log a warning per connection it ends.
		Level level = LIBRARY_LOG.getLevel();
		LIBRARY_LOG.setLevel(Level.SEVERE);
		try {
			return runQuietly(options, progress);
		}
		finally {
			LIBRARY_LOG.setLevel(level);
		}
	}

	private static Result runQuietly(AttackOptions options, PrintStream progress) throws Exception {
		Machine machine = Machine.describe();
		progress.printf(Locale.ROOT, "under-attack %s run on %d cores, load average %.2f; attacks %s%n",
				options.pace().name(), machine.cores(), machine.loadAtStart(), options.attacks());
		List<String> skipped = new ArrayList<>();
		MitKdc kdc = null;
		if (options.attacks().contains(Attacks.GSS_CONTEXTS)) {
			try {
				kdc = MitKdc.start();
			}
			catch (MitKdc.KdcUnavailableException | IOException missing) {
				String why = Attacks.GSS_CONTEXTS + " SKIPPED: no MIT KDC (" + missing.getMessage() + ")";
				progress.println("*** " + why);
				skipped.add(why);
			}
		}
		try {
			KerberosCredentials acceptor = null;
			KerberosCredentials honestUser = null;
			KerberosCredentials attacker = null;
			if (kdc != null) {
				acceptor = KerberosCredentials.acceptorFromKeytab(MitKdc.qualified(AttackedServer.GSS_PRINCIPAL),
						kdc.principalWithKeytab(AttackedServer.GSS_PRINCIPAL));
				honestUser = KerberosCredentials.initiatorFromKeytab(MitKdc.qualified("honest"),
						kdc.principalWithKeytab("honest"));
				attacker = KerberosCredentials.initiatorFromKeytab(MitKdc.qualified("attacker"),
						kdc.principalWithKeytab("attacker"));
			}
			KerberosCredentials service = acceptor;
			KerberosCredentials user = honestUser;
			PhaseRunner runner = new PhaseRunner(
					() -> new AttackedServer(options.pace().operationTimeout(),
							(service != null) ? new RpcSecGssServer(service) : null),
					(server) -> new HonestLoad(server.address(), HONEST_THREADS, user), options.pace(), progress);
			Result result = run(options, machine, runner, attacker, skipped, progress);
			UnderAttackReport.write(options.output(), result);
			return result;
		}
		finally {
			if (kdc != null) {
				kdc.close();
			}
		}
	}

	/** @return the attacked server's operation timeout: the pace's, or the library's default */
	private static Duration operationTimeout(AttackOptions options) {
		return (options.pace().operationTimeout() != null) ? options.pace().operationTimeout()
				: PeerLimits.DEFAULT_OPERATION_TIMEOUT;
	}

	private static Result run(AttackOptions options, Machine machine, PhaseRunner runner, KerberosCredentials attacker,
			List<String> skipped, PrintStream progress) throws Exception {
		List<PhaseResult> phases = new ArrayList<>();
		List<Described> described = new ArrayList<>();
		for (Attack attack : Attacks.create(options.attacks(), attacker, operationTimeout(options))) {
			described.add(new Described(attack.key(), attack.description(), attack.evidence()));
		}
		// One unmeasured baseline first: code compiled, pools and connections warm.
		runner.run(0, null);
		for (int round = 1; round <= options.rounds(); round++) {
			progress.printf(Locale.ROOT, "round %d of %d%n", round, options.rounds());
			// New attack objects each round: their counts are the round's own.
			for (Attack attack : Attacks.create(options.attacks(), attacker, operationTimeout(options))) {
				phases.add(runner.run(round, attack));
			}
		}
		return new Result(options.pace(), machine.ended(), phases, described, skipped);
	}

}

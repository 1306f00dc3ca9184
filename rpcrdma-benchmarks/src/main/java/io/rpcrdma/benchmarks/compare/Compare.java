package io.rpcrdma.benchmarks.compare;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The end-to-end comparison of issue 9, in one run on one machine: rpcrdma over software
 * iWARP (server in this JVM and in a child JVM) and over the loopback provider, gRPC-java
 * with a raw {@code byte[]} marshaller, and blocking sockets as the floor. Cases: 64-byte
 * call latency (1 thread), 64-byte call throughput with 1, 4, 16 and 64 client threads, and
 * bulk arguments and results of 64 KiB, 1 MiB and 16 MiB. Each case runs every contender in
 * turn before the next case, so a change in the neighbours' load hits all of them alike.
 * <p>
 * Writes {@code results.csv}, {@code results.json}, {@code results.md} and PNG plots into
 * {@code docs/benchmarks/} (or {@code --out}). About five minutes; {@code --quick} takes
 * about one, {@code --smoke} a few seconds.
 * <pre>
 * java -cp rpcrdma-benchmarks/target/rpcrdma-benchmarks.jar io.rpcrdma.benchmarks.compare.Compare [--quick]
 * </pre>
 */
public final class Compare {

	/** Client threads of the throughput case. */
	static final List<Integer> THREADS = List.of(1, 4, 16, 64);

	/** Client threads of the throughput case on a busy machine. */
	static final int BUSY_THREADS = 16;

	/** Blocking client threads of the platform-versus-virtual case. */
	static final int BLOCKING_THREADS = 256;

	/** Sizes of the bulk cases. */
	static final List<Integer> BULK_SIZES = List.of(64 << 10, 1 << 20, 16 << 20);

	private Compare() {
	}

	/**
	 * @param args {@code [--quick | --smoke] [--out DIR] [--contenders a,b]}
	 */
	public static void main(String[] args) {
		CompareOptions options = CompareOptions.parseOrExit(args);
		Run run;
		try {
			run = run(options, System.out);
		}
		catch (Exception failed) {
			System.err.println("The comparison stopped: " + failed);
			failed.printStackTrace();
			// A contender's threads may still be running: exit rather than wait for them.
			System.exit(1);
			return;
		}
		System.out.println();
		System.out.println(Reports.markdown(run));
		System.out.println("Written to " + options.output().toAbsolutePath());
		// Provider and Netty threads are closed by now; exit in case a library left one behind.
		System.exit(0);
	}

	/**
	 * Runs the comparison and writes its files.
	 * @param options what to run and where to write
	 * @param progress where each figure is reported as it is measured
	 * @return the run
	 * @throws Exception if a contender fails
	 */
	static Run run(CompareOptions options, PrintStream progress) throws Exception {
		System.setProperty("java.awt.headless", "true");
		Machine machine = Machine.describe();
		progress.printf(Locale.ROOT, "%s run on %d cores, load average %.2f; contenders %s%n", options.pace().name(),
				machine.cores(), machine.loadAtStart(), options.contenders());
		Workload workload = new Workload(options.pace());
		List<List<Measurement>> rounds = new ArrayList<>();
		try (Contenders contenders = new Contenders(options.contenders())) {
			for (Contender c : contenders.list()) {
				workload.warmUp(c);
			}
			for (int round = 1; round <= options.rounds(); round++) {
				progress.printf(Locale.ROOT, "round %d of %d%n", round, options.rounds());
				rounds.add(round(options, workload, contenders.list(), progress));
			}
		}
		List<Measurement> results = Rounds.medians(rounds);
		List<Target> targets = new ArrayList<>();
		for (String subject : List.of(Contenders.SIW, Contenders.SIW_PROCESS, Contenders.LOOPBACK)) {
			targets.addAll(Target.evaluate(rounds, subject));
		}
		Run run = new Run(options.pace(), machine.ended(), results, rounds, targets);
		Reports.write(options.output(), run);
		Charts.write(options.output(), run);
		return run;
	}

	/**
	 * Every case once, each case through every contender in turn, so that a change in the
	 * machine's load falls on all contenders of a case alike.
	 */
	private static List<Measurement> round(CompareOptions options, Workload workload, List<Contender> contenders,
			PrintStream progress) throws Exception {
		List<Measurement> results = new ArrayList<>();
		if (options.measures("latency")) {
			for (Contender c : contenders) {
				results.addAll(report(progress, workload.latency(c)));
			}
		}
		if (options.measures("throughput")) {
			for (int threads : THREADS) {
				for (Contender c : contenders) {
					results.addAll(report(progress, workload.throughput(c, threads)));
				}
			}
		}
		if (options.measures("blocking") && ClientThreads.VIRTUAL.available()) {
			// Side by side, contender by contender: does a blocking caller on a virtual
			// thread give up throughput?
			for (Contender c : contenders) {
				results.addAll(report(progress,
						workload.throughput(c, BLOCKING_THREADS, ClientThreads.PLATFORM, Measurement.BLOCKING_PLATFORM)));
				results.addAll(report(progress,
						workload.throughput(c, BLOCKING_THREADS, ClientThreads.VIRTUAL, Measurement.BLOCKING_VIRTUAL)));
			}
		}
		if (options.measures("bulk")) {
			for (boolean argument : List.of(true, false)) {
				for (int size : BULK_SIZES) {
					for (Contender c : contenders) {
						results.addAll(report(progress, workload.bulk(c, argument, size)));
					}
				}
			}
		}
		if (!options.measures("busy")) {
			return results;
		}
		// Users run on busy machines: the same small calls with one spinning thread per core.
		try (BusyMachine busy = BusyMachine.start(Runtime.getRuntime().availableProcessors())) {
			for (Contender c : contenders) {
				results.addAll(report(progress, workload.latency(c, Measurement.LATENCY_BUSY)));
			}
			for (Contender c : contenders) {
				results.addAll(report(progress,
						workload.throughput(c, BUSY_THREADS, ClientThreads.PLATFORM, Measurement.THROUGHPUT_BUSY)));
			}
		}
		return results;
	}

	static List<Measurement> report(PrintStream progress, List<Measurement> measurements) {
		for (Measurement m : measurements) {
			progress.printf(Locale.ROOT, "%-14s %-20s %9d %-8s %12s %-7s (%d calls)%n", m.scenario(), m.contender(),
					m.parameter(), m.metric(), Reports.number(m.value()), m.unit(), m.calls());
		}
		return measurements;
	}

}

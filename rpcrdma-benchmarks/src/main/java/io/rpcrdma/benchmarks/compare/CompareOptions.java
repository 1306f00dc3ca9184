package io.rpcrdma.benchmarks.compare;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The command line of {@link Compare}.
 *
 * @param pace full, {@code --quick} or {@code --smoke}
 * @param output where results and plots go ({@code --out DIR}, default {@code docs/benchmarks})
 * @param contenders who is measured ({@code --contenders a,b}, default all)
 * @param rounds how many rounds ({@code --rounds N}, default the pace's)
 * @param cases which of {@link #CASES} {@link Compare} measures ({@code --cases a,b}, default
 * all): a part of a full run, to look into one case at a time
 */
record CompareOptions(Pace pace, Path output, List<String> contenders, int rounds, List<String> cases) {

	/** Compare's cases, as {@code --cases} names them. */
	static final List<String> CASES = List.of("latency", "throughput", "blocking", "bulk", "busy");

	static final String USAGE = "usage: Compare [--quick | --smoke] [--rounds N] [--out DIR] [--contenders "
			+ String.join(",", Contenders.ALL) + "," + String.join(",", Contenders.NAMED_ONLY) + "] [--cases "
			+ String.join(",", CASES) + "]";

	/**
	 * @param name one of {@link #CASES}
	 * @return whether this run measures it
	 */
	boolean measures(String name) {
		return this.cases.contains(name);
	}

	/**
	 * @param args the command line
	 * @return the options
	 * @throws IllegalArgumentException naming what was wrong, with the usage
	 */
	static CompareOptions parse(String... args) {
		Pace pace = Pace.FULL;
		Path output = Path.of("docs", "benchmarks");
		List<String> contenders = Contenders.ALL;
		int rounds = 0;
		List<String> cases = CASES;
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--quick" -> pace = Pace.QUICK;
				case "--smoke" -> pace = Pace.SMOKE;
				case "--full" -> pace = Pace.FULL;
				case "--out" -> output = Path.of(value(args, ++i, "--out"));
				case "--rounds" -> {
					String value = value(args, ++i, "--rounds");
					try {
						rounds = Integer.parseInt(value);
					}
					catch (NumberFormatException ex) {
						rounds = -1;
					}
					if (rounds < 1 || rounds > 50) {
						throw new IllegalArgumentException("--rounds must be 1 to 50, not " + value + "; " + USAGE);
					}
				}
				case "--contenders" -> {
					contenders = Arrays.stream(value(args, ++i, "--contenders").split(",")).map(String::trim).toList();
					for (String name : contenders) {
						if (!Contenders.ALL.contains(name) && !Contenders.NAMED_ONLY.contains(name)) {
							throw new IllegalArgumentException("No contender named " + name + "; " + USAGE);
						}
					}
				}
				case "--cases" -> {
					cases = Arrays.stream(value(args, ++i, "--cases").split(",")).map(String::trim).toList();
					for (String name : cases) {
						if (!CASES.contains(name)) {
							throw new IllegalArgumentException("No case named " + name + "; " + USAGE);
						}
					}
				}
				default -> throw new IllegalArgumentException("Unknown option " + args[i] + "; " + USAGE);
			}
		}
		return new CompareOptions(pace, output, contenders, (rounds > 0) ? rounds : pace.rounds(), cases);
	}

	/**
	 * Parses the command line of a benchmark's {@code main}; prints what was wrong and exits
	 * with status 2 if it is malformed.
	 * @param args the command line
	 * @return the options
	 */
	static CompareOptions parseOrExit(String... args) {
		try {
			return parse(args);
		}
		catch (IllegalArgumentException wrong) {
			System.err.println(wrong.getMessage());
			System.exit(2);
			throw wrong;
		}
	}

	private static String value(String[] args, int index, String option) {
		if (index >= args.length) {
			throw new IllegalArgumentException(option + " needs a value; " + USAGE);
		}
		return args[index];
	}

}

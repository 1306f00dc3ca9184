package io.rpcrdma.benchmarks.attack;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The command line of {@link UnderAttack}.
 *
 * @param pace full, {@code --quick} or {@code --smoke}
 * @param rounds how many rounds ({@code --rounds N}, default the pace's)
 * @param output where the report goes ({@code --out DIR}, default {@code docs/benchmarks})
 * @param attacks which attacks run ({@code --attacks a,b}, default all), by {@link Attack#key()}
 */
record AttackOptions(AttackPace pace, int rounds, Path output, List<String> attacks) {

	static final String USAGE = "usage: UnderAttack [--quick | --smoke] [--rounds N] [--out DIR] [--attacks "
			+ String.join(",", Attacks.KEYS) + "]";

	/**
	 * @param args the command line
	 * @return the options
	 * @throws IllegalArgumentException naming what was wrong, with the usage
	 */
	static AttackOptions parse(String... args) {
		AttackPace pace = AttackPace.FULL;
		int rounds = 0;
		Path output = Path.of("docs", "benchmarks");
		List<String> attacks = Attacks.KEYS;
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--quick" -> pace = AttackPace.QUICK;
				case "--smoke" -> pace = AttackPace.SMOKE;
				case "--full" -> pace = AttackPace.FULL;
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
				case "--attacks" -> {
					attacks = Arrays.stream(value(args, ++i, "--attacks").split(",")).map(String::trim).toList();
					for (String key : attacks) {
						if (!Attacks.KEYS.contains(key)) {
							throw new IllegalArgumentException("No attack named " + key + "; " + USAGE);
						}
					}
				}
				default -> throw new IllegalArgumentException("Unknown option " + args[i] + "; " + USAGE);
			}
		}
		return new AttackOptions(pace, (rounds > 0) ? rounds : pace.rounds(), output, attacks);
	}

	private static String value(String[] args, int index, String option) {
		if (index >= args.length) {
			throw new IllegalArgumentException(option + " needs a value; " + USAGE);
		}
		return args[index];
	}

}

package io.rpcrdma.log;

import java.time.Duration;
import java.util.Locale;

/**
 * Durations in messages as people write them ("5 s", "250 ms", "4.94 s", "2 min"), not as
 * {@link Duration#toString()} does ("PT4.937495417S"): the one formatter every message of the
 * project goes through.
 */
public final class Durations {

	private static final long[] UNIT_NANOS = { 86_400_000_000_000L, 3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L,
			1_000_000L, 1_000L, 1L };

	private static final String[] UNIT_NAMES = { "d", "h", "min", "s", "ms", "µs", "ns" };

	private static final int SECONDS = 3;

	private static final int MILLIS = 4;

	private Durations() {
	}

	/**
	 * Whole days, hours or minutes when the duration is a whole number of one ("2 min", "1 h");
	 * else seconds from one second up ("30 s", "61.5 s", "4.94 s"), milliseconds, microseconds
	 * or nanoseconds below; exact to the millisecond where the duration is ("1.234 s"), else to
	 * three significant digits (a measurement, such as PT4.937495417S, written "4.94 s").
	 * @param duration the duration; negative ones get a minus sign
	 * @return it written
	 */
	public static String written(Duration duration) {
		if (duration.isNegative()) {
			return "-" + written(duration.negated());
		}
		long nanos;
		try {
			nanos = duration.toNanos();
		}
		catch (ArithmeticException ex) {
			// Beyond 292 years: days are exact enough.
			return duration.toDays() + " d";
		}
		if (nanos == 0) {
			return "0 s";
		}
		for (int i = 0; i < SECONDS; i++) {
			if (nanos % UNIT_NANOS[i] == 0) {
				return (nanos / UNIT_NANOS[i]) + " " + UNIT_NAMES[i];
			}
		}
		for (int i = SECONDS; i < UNIT_NANOS.length; i++) {
			if (nanos >= UNIT_NANOS[i] || i == UNIT_NANOS.length - 1) {
				boolean exactMillis = nanos % UNIT_NANOS[MILLIS] == 0 && i <= MILLIS;
				double value = (double) nanos / UNIT_NANOS[i];
				return (exactMillis ? trimmed(String.format(Locale.ROOT, "%.3f", value)) : significant(value)) + " "
						+ UNIT_NAMES[i];
			}
		}
		throw new AssertionError("nanoseconds are the last unit");
	}

	private static String trimmed(String decimal) {
		return decimal.replaceAll("0+$", "").replaceAll("\\.$", "");
	}

	/** Three significant digits, no trailing zeros: 4.94, 12.3, 937, 1.5. */
	private static String significant(double value) {
		int decimals = (value >= 100) ? 0 : (value >= 10) ? 1 : 2;
		String text = String.format(Locale.ROOT, "%." + decimals + "f", value);
		return (text.indexOf('.') >= 0) ? trimmed(text) : text;
	}

}

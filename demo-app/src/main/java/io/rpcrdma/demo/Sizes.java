package io.rpcrdma.demo;

import java.util.Locale;

/**
 * Human-readable byte counts for the console.
 */
public final class Sizes {

	private Sizes() {
	}

	/**
	 * @param bytes a byte count
	 * @return it in B, KiB, MiB or GiB with one decimal where that helps
	 */
	public static String format(long bytes) {
		if (bytes < 1024) {
			return bytes + " B";
		}
		String[] units = { "KiB", "MiB", "GiB", "TiB" };
		double value = bytes;
		int unit = -1;
		while (value >= 1024 && unit < units.length - 1) {
			value /= 1024;
			unit++;
		}
		if (value == Math.rint(value)) {
			return String.format(Locale.ROOT, "%d %s", (long) value, units[unit]);
		}
		return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
	}

}

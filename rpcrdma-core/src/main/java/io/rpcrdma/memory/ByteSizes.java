package io.rpcrdma.memory;

/**
 * Formats byte counts for names and messages: {@code 64 KiB}, {@code 16 MiB}, or
 * {@code 1500 bytes} when the count is not a whole number of KiB.
 */
final class ByteSizes {

	private static final long KIB = 1024;

	private static final long MIB = KIB * 1024;

	private static final long GIB = MIB * 1024;

	private ByteSizes() {
	}

	static String format(long bytes) {
		if (bytes >= GIB && bytes % GIB == 0) {
			return (bytes / GIB) + " GiB";
		}
		if (bytes >= MIB && bytes % MIB == 0) {
			return (bytes / MIB) + " MiB";
		}
		if (bytes >= KIB && bytes % KIB == 0) {
			return (bytes / KIB) + " KiB";
		}
		return bytes + (bytes == 1 ? " byte" : " bytes");
	}

	/**
	 * A compact form without spaces, for size class names: {@code 64KiB}, {@code 1500B}.
	 */
	static String compact(long bytes) {
		if (bytes >= GIB && bytes % GIB == 0) {
			return (bytes / GIB) + "GiB";
		}
		if (bytes >= MIB && bytes % MIB == 0) {
			return (bytes / MIB) + "MiB";
		}
		if (bytes >= KIB && bytes % KIB == 0) {
			return (bytes / KIB) + "KiB";
		}
		return bytes + "B";
	}

}

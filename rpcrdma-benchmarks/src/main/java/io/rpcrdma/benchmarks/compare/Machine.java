package io.rpcrdma.benchmarks.compare;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * What the figures were measured on. The load average at start and end says how much the
 * neighbours took: on a shared 2-core machine it matters as much as the code.
 *
 * @param cores processors the JVM sees
 * @param cpu the CPU model, or {@code unknown}
 * @param memoryBytes physical memory, or -1 if unknown
 * @param jdk {@code java.vendor java.version (java.vm.name)}
 * @param os {@code os.name os.version os.arch}
 * @param startedAt when the run began (UTC)
 * @param loadAtStart the one-minute load average at the start, -1 if unknown
 * @param loadAtEnd the same at the end
 * @param cpuTicksAtStart total and steal CPU ticks when the run began (internal)
 * @param stealFraction the share of CPU time stolen by the hypervisor during the run, -1 if
 * unknown
 */
public record Machine(int cores, String cpu, long memoryBytes, String jdk, String os, Instant startedAt, double loadAtStart,
		double loadAtEnd, long[] cpuTicksAtStart, double stealFraction) {

	/** @return this machine now, the end load not yet known */
	public static Machine describe() {
		return new Machine(Runtime.getRuntime().availableProcessors(), cpuModel(), physicalMemory(),
				System.getProperty("java.vendor") + " " + System.getProperty("java.version") + " ("
						+ System.getProperty("java.vm.name") + ")",
				System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
				Instant.now(), load(), -1, cpuTicks(), -1);
	}

	/**
	 * The machine at the end of the run: its load average, and the share of CPU time the
	 * hypervisor took from this virtual machine during the run (steal, from /proc/stat), which
	 * moves figures as much as load does.
	 * @return a copy with the end figures
	 */
	public Machine ended() {
		long[] end = cpuTicks();
		double steal = -1;
		if (this.cpuTicksAtStart.length == 2 && end.length == 2 && end[0] > this.cpuTicksAtStart[0]) {
			steal = (double) (end[1] - this.cpuTicksAtStart[1]) / (end[0] - this.cpuTicksAtStart[0]);
		}
		return new Machine(this.cores, this.cpu, this.memoryBytes, this.jdk, this.os, this.startedAt, this.loadAtStart,
				load(), end, steal);
	}

	/** @return total and steal ticks of all CPUs, from the first line of /proc/stat; empty if unknown */
	private static long[] cpuTicks() {
		try {
			String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
			long total = 0;
			for (int i = 1; i < fields.length && i <= 8; i++) {
				total += Long.parseLong(fields[i]);
			}
			return new long[] { total, (fields.length > 8) ? Long.parseLong(fields[8]) : 0 };
		}
		catch (IOException | RuntimeException unreadable) {
			return new long[0];
		}
	}

	private static double load() {
		OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
		return os.getSystemLoadAverage();
	}

	private static long physicalMemory() {
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			return os.getTotalMemorySize();
		}
		return -1;
	}

	private static String cpuModel() {
		Path cpuinfo = Path.of("/proc/cpuinfo");
		if (Files.isReadable(cpuinfo)) {
			try (var lines = Files.lines(cpuinfo)) {
				return lines.filter((line) -> line.startsWith("model name"))
					.map((line) -> line.substring(line.indexOf(':') + 1).trim())
					.findFirst()
					.orElse("unknown");
			}
			catch (IOException | RuntimeException unreadable) {
				return "unknown";
			}
		}
		return "unknown";
	}

}

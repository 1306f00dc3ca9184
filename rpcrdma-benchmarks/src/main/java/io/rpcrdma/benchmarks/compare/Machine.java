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
 */
record Machine(int cores, String cpu, long memoryBytes, String jdk, String os, Instant startedAt, double loadAtStart,
		double loadAtEnd) {

	/** @return this machine now, the end load not yet known */
	static Machine describe() {
		return new Machine(Runtime.getRuntime().availableProcessors(), cpuModel(), physicalMemory(),
				System.getProperty("java.vendor") + " " + System.getProperty("java.version") + " ("
						+ System.getProperty("java.vm.name") + ")",
				System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
				Instant.now(), load(), -1);
	}

	/** @return a copy with the load average now as the end load */
	Machine ended() {
		return new Machine(this.cores, this.cpu, this.memoryBytes, this.jdk, this.os, this.startedAt, this.loadAtStart,
				load());
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

package io.rpcrdma.benchmarks.compare;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Optional;

/**
 * CPU time (user and system) used so far by the measuring JVM and, where a contender's server
 * runs in a process of its own, by that process. A case's CPU cost is the difference of two
 * samples taken around its measured window: far steadier than wall-clock time on a shared
 * host, and what a user pays for.
 * <p>
 * In the measuring JVM it is the whole process: client and in-JVM server alike, their garbage
 * collection and compilation, and the idle threads of the other contenders (which cost
 * nothing measurable while idle).
 *
 * @param clientNanos the measuring JVM's CPU time
 * @param serverNanos the server process's CPU time, or -1 when the server runs in the
 * measuring JVM (its time is then in {@code clientNanos})
 */
record CpuTime(long clientNanos, long serverNanos) {

	private static final com.sun.management.OperatingSystemMXBean SYSTEM =
			(com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

	/**
	 * @param contender whose server's process is sampled too, if it has one
	 * @return the CPU time used so far
	 */
	static CpuTime sample(Contender contender) {
		long server = contender.serverProcess()
			.flatMap((process) -> process.info().totalCpuDuration())
			.map(Duration::toNanos)
			.orElse(-1L);
		return new CpuTime(SYSTEM.getProcessCpuTime(), server);
	}

	/**
	 * @param earlier a sample taken before this one
	 * @return the CPU time used between the two
	 */
	CpuTime since(CpuTime earlier) {
		return new CpuTime(this.clientNanos - earlier.clientNanos,
				(this.serverNanos < 0 || earlier.serverNanos < 0) ? -1 : this.serverNanos - earlier.serverNanos);
	}

	/** @return both sides together */
	long totalNanos() {
		return this.clientNanos + Math.max(0, this.serverNanos);
	}

	/** @return whether the server's time is counted apart */
	boolean serverApart() {
		return this.serverNanos >= 0;
	}

}

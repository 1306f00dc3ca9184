package io.rpcrdma.verbs.disni;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Whether the {@code disni} provider can run here, and if not, every
 * {@link DisniRequirement} that is missing with the evidence and the remedy. Detection
 * only probes; it opens no device.
 *
 * @param missing the missing requirements, in the order of {@link DisniRequirement}
 * @param devices the RDMA devices found under {@code /sys/class/infiniband}
 */
public record DisniDetection(List<Missing> missing, List<String> devices) {

	/** The class whose presence means the DiSNI jar is on the class path. */
	static final String DISNI_CLASS = "com.ibm.disni.verbs.RdmaProvider";

	/** The rdma-core libraries libdisni links against. */
	static final List<String> RDMA_CORE_LIBRARIES = List.of("libibverbs.so.1", "librdmacm.so.1");

	/**
	 * One missing requirement.
	 *
	 * @param requirement what is missing
	 * @param detail what the probe found
	 */
	public record Missing(DisniRequirement requirement, String detail) {

		/**
		 * Validates the entry.
		 * @param requirement what is missing
		 * @param detail what the probe found
		 */
		public Missing {
			Objects.requireNonNull(requirement, "requirement");
			Objects.requireNonNull(detail, "detail");
		}

	}

	/**
	 * Copies the lists.
	 * @param missing the missing requirements
	 * @param devices the devices found
	 */
	public DisniDetection {
		missing = List.copyOf(missing);
		devices = List.copyOf(devices);
	}

	/**
	 * Runs every probe; a missing piece never hides another.
	 * @param environment the probes
	 * @return the result
	 */
	public static DisniDetection detect(DisniEnvironment environment) {
		List<Missing> missing = new ArrayList<>();
		if (!environment.classPresent(DISNI_CLASS)) {
			missing.add(new Missing(DisniRequirement.DISNI_JAR, "class " + DISNI_CLASS + " is not on the class path"));
		}
		List<String> absent = RDMA_CORE_LIBRARIES.stream()
			.filter((library) -> environment.findSharedLibrary(library).isEmpty())
			.toList();
		if (!absent.isEmpty()) {
			missing.add(new Missing(DisniRequirement.RDMA_CORE, "not found: " + String.join(", ", absent)));
		}
		environment.loadLibrary("disni").ifPresent((problem) -> {
			String path = environment.javaLibraryPath();
			missing.add(new Missing(DisniRequirement.LIBDISNI,
					problem.contains(path) ? problem : problem + " (java.library.path=" + path + ")"));
		});
		List<String> devices = environment.rdmaDevices();
		if (devices.isEmpty()) {
			missing.add(new Missing(DisniRequirement.RDMA_DEVICE, "/sys/class/infiniband is missing or empty"));
		}
		if (!environment.sunNioChExported()) {
			missing.add(new Missing(DisniRequirement.ADD_EXPORTS,
					"java.base does not export sun.nio.ch to the class path"));
		}
		return new DisniDetection(missing, devices);
	}

	/**
	 * Whether everything is in place.
	 * @return {@code true} if nothing is missing
	 */
	public boolean isAvailable() {
		return this.missing.isEmpty();
	}

	/**
	 * What is missing, in the order probed, with what the probe saw.
	 * @return the entries, empty when available
	 */
	public List<Missing> missing() {
		return List.copyOf(this.missing);
	}

	/**
	 * The missing requirements.
	 * @return the set, empty when available
	 */
	public Set<DisniRequirement> missingRequirements() {
		Set<DisniRequirement> set = EnumSet.noneOf(DisniRequirement.class);
		this.missing.forEach((m) -> set.add(m.requirement()));
		return set;
	}

	/**
	 * One message that names everything missing, what the probe saw, and how to get each;
	 * what {@code RdmaProviders} shows when {@code disni} is asked for and logs when
	 * {@code auto} passes it over.
	 * @return the message, or {@code "available"} when nothing is missing
	 */
	public String summary() {
		if (isAvailable()) {
			return "available";
		}
		int total = DisniRequirement.values().length;
		StringJoiner joiner = new StringJoiner("; ",
				"DiSNI cannot run here, " + this.missing.size() + " of " + total + " requirements missing: ",
				"; see docs/hardware.md");
		int n = 1;
		for (Missing entry : this.missing) {
			joiner.add("(" + n++ + ") " + entry.requirement().description() + " [" + entry.detail() + "] - to fix: "
					+ entry.requirement().remedy());
		}
		return joiner.toString();
	}

}

package io.rpcrdma.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How QEMU runs the lab guest. KVM is tried first where {@code /dev/kvm} opens, but a
 * {@code /dev/kvm} that opens is not one that works (nested virtualization may run no guest
 * code at all), so a KVM guest that prints nothing within a few seconds is abandoned for TCG.
 */
public enum Accelerator {

	/** Hardware virtualization. */
	KVM("kvm", Duration.ofSeconds(10), Duration.ofSeconds(90)),

	/** QEMU's own binary translation: slower, but works everywhere. */
	TCG("tcg", Duration.ofSeconds(60), Duration.ofSeconds(300));

	private final String option;

	private final Duration firstOutput;

	private final Duration ready;

	Accelerator(String option, Duration firstOutput, Duration ready) {
		this.option = option;
		this.firstOutput = firstOutput;
		this.ready = ready;
	}

	/**
	 * The value of QEMU's {@code -accel}.
	 * @return the option
	 */
	String option() {
		return this.option;
	}

	/**
	 * How long the kernel may take to print its first line.
	 * @return the limit
	 */
	Duration firstOutput() {
		return this.firstOutput;
	}

	/**
	 * How long the guest may take to be ready.
	 * @return the limit
	 */
	Duration ready() {
		return this.ready;
	}

	/**
	 * The accelerators to try, in order.
	 * @param choice {@code auto}, {@code kvm} or {@code tcg}
	 * @return the candidates
	 */
	static List<Accelerator> candidates(String choice) {
		return switch (choice) {
			case "kvm" -> List.of(KVM);
			case "tcg" -> List.of(TCG);
			case "auto" -> kvmOpens() ? List.of(KVM, TCG) : List.of(TCG);
			default -> throw new IllegalArgumentException(
					"rpcrdma.lab.accel must be auto, kvm or tcg, not '" + choice + "'");
		};
	}

	private static boolean kvmOpens() {
		Path device = Path.of("/dev/kvm");
		return Files.isReadable(device) && Files.isWritable(device);
	}

}

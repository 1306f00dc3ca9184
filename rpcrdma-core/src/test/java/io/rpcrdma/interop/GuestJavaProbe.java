package io.rpcrdma.interop;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A main class {@link LabGuestJavaTest} runs in the lab guest: it prints what only the guest
 * knows (its kernel's version, its RDMA devices), or fails when asked to.
 */
public final class GuestJavaProbe {

	private GuestJavaProbe() {
	}

	/**
	 * Prints {@code os.version=...}, {@code java.home=...} and {@code siw0=true|false}.
	 * @param args {@code fail} to throw instead
	 */
	public static void main(String[] args) {
		if (args.length > 0 && args[0].equals("fail")) {
			throw new IllegalStateException("the probe was asked to fail");
		}
		System.out.println("os.version=" + System.getProperty("os.version"));
		System.out.println("java.home=" + System.getProperty("java.home"));
		System.out.println("siw0=" + Files.isDirectory(Path.of("/sys/class/infiniband/siw0")));
	}

}

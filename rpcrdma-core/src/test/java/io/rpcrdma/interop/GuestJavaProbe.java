package io.rpcrdma.interop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A main class {@link LabGuestJavaTest} runs in the lab guest: it prints what only the guest
 * knows (a token the test put there, its kernel's version, its RDMA devices), or fails when
 * asked to.
 */
public final class GuestJavaProbe {

	private GuestJavaProbe() {
	}

	/** A file the test writes in the guest just before, with a value of its own. */
	static final String TOKEN = "/tmp/lab-probe-token";

	/**
	 * Prints {@code token=<the token file's content>}, {@code os.version=...},
	 * {@code java.home=...} and {@code siw0=true|false}.
	 * @param args {@code fail} to throw instead
	 * @throws IOException if the token file cannot be read
	 */
	public static void main(String[] args) throws IOException {
		if (args.length > 0 && args[0].equals("fail")) {
			throw new IllegalStateException("the probe was asked to fail");
		}
		Path token = Path.of(TOKEN);
		System.out.println("token=" + (Files.exists(token) ? Files.readString(token).trim() : "none"));
		System.out.println("os.version=" + System.getProperty("os.version"));
		System.out.println("java.home=" + System.getProperty("java.home"));
		System.out.println("siw0=" + Files.isDirectory(Path.of("/sys/class/infiniband/siw0")));
	}

}

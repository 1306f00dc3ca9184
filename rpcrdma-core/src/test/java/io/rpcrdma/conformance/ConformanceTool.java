package io.rpcrdma.conformance;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Assumptions;

/**
 * A third-party program that a conformance test uses to check the project's output
 * independently (Wireshark's tshark for wire formats, rpcgen for XDR language). Such tests
 * are tagged {@code conformance}; when the program is missing they are skipped, loudly:
 * the reason goes to the console (not only to surefire's report files) at once, and again
 * in the summary {@link ConformanceSkipSummary} prints when the run ends.
 *
 * @param name the program name looked up on the {@code PATH}
 * @param property a system property that overrides the location (point it at a missing file
 * to force the skip)
 * @param debianPackage the Debian package that provides it
 */
public record ConformanceTool(String name, String property, String debianPackage) {

	/** Wireshark's command-line dissector. */
	public static final ConformanceTool TSHARK = new ConformanceTool("tshark", "rpcrdma.tshark", "tshark");

	/** The ONC RPC protocol compiler. */
	public static final ConformanceTool RPCGEN = new ConformanceTool("rpcgen", "rpcrdma.rpcgen", "rpcsvc-proto");

	/** MIT Kerberos's KDC, for the RPCSEC_GSS tests. */
	public static final ConformanceTool KRB5KDC = new ConformanceTool("krb5kdc", "rpcrdma.krb5kdc", "krb5-kdc");

	/** MIT Kerberos's database tool, which creates a realm. */
	public static final ConformanceTool KDB5_UTIL = new ConformanceTool("kdb5_util", "rpcrdma.kdb5_util", "krb5-kdc");

	/** MIT Kerberos's local administration tool, which creates principals and keytabs. */
	public static final ConformanceTool KADMIN_LOCAL = new ConformanceTool("kadmin.local", "rpcrdma.kadmin.local",
			"krb5-admin-server");

	/** rpcbind (RFC 1833), for registering and resolving the rdma netids. */
	public static final ConformanceTool RPCBIND = new ConformanceTool("rpcbind", "rpcrdma.rpcbind", "rpcbind");

	/** rpcbind's own reader, the independent check of what rpcbind holds. */
	public static final ConformanceTool RPCINFO = new ConformanceTool("rpcinfo", "rpcrdma.rpcinfo", "rpcbind");

	/**
	 * Finds the program.
	 * @return its path, if it is installed and executable
	 */
	public Optional<Path> locate() {
		String configured = System.getProperty(this.property);
		if (configured != null) {
			Path path = Path.of(configured);
			return Files.isExecutable(path) ? Optional.of(path) : Optional.empty();
		}
		String searchPath = System.getenv("PATH");
		if (searchPath == null) {
			return Optional.empty();
		}
		// Daemons and administration tools live in sbin, which is not on every user's PATH.
		for (String directory : (searchPath + File.pathSeparator + "/usr/sbin" + File.pathSeparator + "/sbin")
			.split(File.pathSeparator)) {
			if (!directory.isEmpty()) {
				Path candidate = Path.of(directory, this.name);
				if (Files.isExecutable(candidate)) {
					return Optional.of(candidate);
				}
			}
		}
		return Optional.empty();
	}

	/**
	 * Returns the program, or skips the calling test with a loud message saying which
	 * conformance check was not run and how to install what it needs.
	 * @param check what the skipped test would have proven, for the message
	 * @return the program's path
	 */
	public Path require(String check) {
		Optional<Path> found = locate();
		if (found.isEmpty()) {
			String message = this.name + " not found: " + check + " NOT run; install it with 'apt-get install -y "
					+ this.debianPackage + "' (or set -D" + this.property + "=/path/to/" + this.name + ")";
			ConformanceSkipSummary.console().println("!!! CONFORMANCE SKIPPED: " + message);
			Assumptions.abort(message);
		}
		return found.get();
	}

}

package io.rpcrdma.kerberos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.rpcrdma.conformance.ConformanceTool;

/**
 * A real MIT Kerberos KDC (Debian's {@code krb5-kdc}) in a throw-away realm on 127.0.0.1:
 * the realm is created with {@code kdb5_util}, principals and their keytabs with
 * {@code kadmin.local}, and {@code krb5kdc} runs in the foreground until {@link #close()}.
 * The JDK is pointed at the realm's {@code krb5.conf} through {@code java.security.krb5.conf}.
 * One per test JVM ({@link MitKdcExtension}), since the JDK reads that file once.
 */
public final class MitKdc implements AutoCloseable {

	/** The realm of every test KDC. */
	public static final String REALM = "RPCRDMA.TEST";

	private static final Duration COMMAND_DEADLINE = Duration.ofSeconds(30);

	private final Path directory;

	private final int port;

	private final Process kdc;

	private final Path kadmin;

	private MitKdc(Path directory, int port, Process kdc, Path kadmin) {
		this.directory = directory;
		this.port = port;
		this.kdc = kdc;
		this.kadmin = kadmin;
	}

	/**
	 * Creates the realm and starts the KDC.
	 * @return the running KDC
	 * @throws KdcUnavailableException naming the Debian package when MIT Kerberos is not installed
	 * @throws IOException if it cannot be started
	 * @throws InterruptedException if interrupted while waiting for it
	 */
	public static MitKdc start() throws IOException, InterruptedException {
		Path krb5kdc = tool(ConformanceTool.KRB5KDC);
		Path kdb5 = tool(ConformanceTool.KDB5_UTIL);
		Path kadmin = tool(ConformanceTool.KADMIN_LOCAL);
		Path directory = Files.createTempDirectory("rpcrdma-kdc");
		int port = freePort();
		Files.writeString(directory.resolve("krb5.conf"), """
				[libdefaults]
				  default_realm = %1$s
				  dns_lookup_kdc = false
				  dns_lookup_realm = false
				  udp_preference_limit = 1
				  rdns = false
				[realms]
				  %1$s = {
				    kdc = 127.0.0.1:%2$d
				  }
				[domain_realm]
				  localhost = %1$s
				""".formatted(REALM, port));
		Files.writeString(directory.resolve("kdc.conf"), """
				[kdcdefaults]
				  kdc_listen = 127.0.0.1:%2$d
				  kdc_tcp_listen = 127.0.0.1:%2$d
				[realms]
				  %1$s = {
				    database_name = %3$s/principal
				    key_stash_file = %3$s/stash
				    acl_file = %3$s/kadm5.acl
				    kdc_listen = 127.0.0.1:%2$d
				    kdc_tcp_listen = 127.0.0.1:%2$d
				    supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
				  }
				[logging]
				  kdc = FILE:%3$s/kdc.log
				""".formatted(REALM, port, directory));
		run(directory, List.of(kdb5.toString(), "create", "-s", "-r", REALM, "-P", "rpcrdma-test-master", "-W"));
		ProcessBuilder kdcCommand = new ProcessBuilder(krb5kdc.toString(), "-n", "-r", REALM).directory(directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(directory.resolve("krb5kdc.out").toFile());
		environment(kdcCommand, directory);
		Process kdc = kdcCommand.start();
		MitKdc started = new MitKdc(directory, port, kdc, kadmin);
		try {
			started.awaitListening();
		}
		catch (IOException | RuntimeException ex) {
			started.close();
			throw ex;
		}
		System.setProperty("java.security.krb5.conf", directory.resolve("krb5.conf").toString());
		return started;
	}

	private static Path tool(ConformanceTool tool) {
		return tool.locate()
			.orElseThrow(() -> new KdcUnavailableException(tool.name() + " not found: RPCSEC_GSS against a real MIT"
					+ " Kerberos KDC NOT run; install it with 'apt-get install -y krb5-kdc krb5-admin-server' (or set -D"
					+ tool.property() + "=/path/to/" + tool.name() + ")"));
	}

	/** MIT Kerberos is not installed here. */
	public static final class KdcUnavailableException extends RuntimeException {

		private static final long serialVersionUID = 1L;

		KdcUnavailableException(String message) {
			super(message);
		}

	}

	/** @return the realm's krb5.conf */
	public Path krb5Conf() {
		return this.directory.resolve("krb5.conf");
	}

	/** @return the port the KDC listens on, TCP and UDP, on 127.0.0.1 */
	public int port() {
		return this.port;
	}

	/**
	 * Creates a principal with a random key and writes its keys to a keytab.
	 * @param name the principal without realm, e.g. {@code alice} or {@code rpcrdma/localhost}
	 * @return the keytab
	 * @throws IOException if kadmin.local fails
	 * @throws InterruptedException if interrupted
	 */
	public synchronized Path principalWithKeytab(String name) throws IOException, InterruptedException {
		return principalWithKeytab(name, null);
	}

	/**
	 * Creates a principal whose tickets live at most {@code maxLife} (the KDC grants no longer
	 * ticket to it, nor for it), with a random key written to a keytab.
	 * @param name the principal without realm
	 * @param maxLife its tickets' longest lifetime, whole seconds; {@code null} for the realm's
	 * @return the keytab
	 * @throws IOException if kadmin.local fails
	 * @throws InterruptedException if interrupted
	 */
	public synchronized Path principalWithKeytab(String name, Duration maxLife) throws IOException, InterruptedException {
		Path keytab = this.directory.resolve(name.replace('/', '_') + ".keytab");
		if (Files.exists(keytab)) {
			// One KDC serves the whole run: a principal another test made is there already.
			return keytab;
		}
		String life = (maxLife != null) ? "-maxlife \"" + maxLife.toSeconds() + " seconds\" " : "";
		run(this.directory, List.of(this.kadmin.toString(), "-r", REALM, "-q", "addprinc " + life + "-randkey " + name));
		run(this.directory, List.of(this.kadmin.toString(), "-r", REALM, "-q", "ktadd -k " + keytab + " " + name));
		return keytab;
	}

	/**
	 * Gives a principal a new key, so keytabs written before hold stale ones.
	 * @param name the principal without realm
	 * @throws IOException if kadmin.local fails
	 * @throws InterruptedException if interrupted
	 */
	public void changeKey(String name) throws IOException, InterruptedException {
		run(this.directory, List.of(this.kadmin.toString(), "-r", REALM, "-q", "cpw -randkey " + name));
	}

	/** @return the fully qualified name of a principal in the realm */
	public static String qualified(String name) {
		return name + "@" + REALM;
	}

	private void awaitListening() throws IOException, InterruptedException {
		long deadline = System.nanoTime() + COMMAND_DEADLINE.toNanos();
		while (System.nanoTime() < deadline) {
			if (!this.kdc.isAlive()) {
				throw new IOException("krb5kdc exited with " + this.kdc.exitValue() + ": " + log());
			}
			try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), this.port)) {
				return;
			}
			catch (IOException notYet) {
				this.kdc.waitFor(50, TimeUnit.MILLISECONDS);
			}
		}
		throw new IOException("krb5kdc did not listen on 127.0.0.1:" + this.port + " within " + COMMAND_DEADLINE + ": " + log());
	}

	private String log() {
		try {
			Path out = this.directory.resolve("krb5kdc.out");
			Path kdcLog = this.directory.resolve("kdc.log");
			return (Files.exists(out) ? Files.readString(out) : "") + (Files.exists(kdcLog) ? Files.readString(kdcLog) : "");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void run(Path directory, List<String> command) throws IOException, InterruptedException {
		ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).directory(directory.toFile())
			.redirectErrorStream(true);
		environment(builder, directory);
		Path output = Files.createTempFile(directory, "command", ".out");
		Process process = builder.redirectOutput(output.toFile()).start();
		if (!process.waitFor(COMMAND_DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
			process.destroyForcibly();
			throw new IOException(command.get(0) + " did not finish within " + COMMAND_DEADLINE);
		}
		String printed = Files.readString(output, StandardCharsets.UTF_8);
		// kadmin.local exits 0 on a failed query; MIT's messages read "<what>: <error> while <doing>".
		if (process.exitValue() != 0 || printed.contains(" while ")) {
			throw new IOException(String.join(" ", command) + " failed (" + process.exitValue() + "): " + printed);
		}
	}

	/** MIT's tools read the realm's files, never the host's /etc/krb5.conf or /etc/krb5kdc. */
	private static void environment(ProcessBuilder builder, Path directory) {
		builder.environment().put("KRB5_CONFIG", directory.resolve("krb5.conf").toString());
		builder.environment().put("KRB5_KDC_PROFILE", directory.resolve("kdc.conf").toString());
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	/** Stops the KDC and removes the realm. */
	@Override
	public void close() {
		this.kdc.destroy();
		try {
			if (!this.kdc.waitFor(10, TimeUnit.SECONDS)) {
				this.kdc.destroyForcibly();
			}
		}
		catch (InterruptedException ex) {
			this.kdc.destroyForcibly();
			Thread.currentThread().interrupt();
		}
		try (var files = Files.walk(this.directory)) {
			files.sorted(java.util.Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// A temporary directory left behind is harmless.
		}
	}

}

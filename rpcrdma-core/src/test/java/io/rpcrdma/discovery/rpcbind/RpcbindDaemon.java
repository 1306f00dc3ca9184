package io.rpcrdma.discovery.rpcbind;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.rpcrdma.conformance.ConformanceTool;

/**
 * The real rpcbind (Debian's {@code rpcbind} package) on 127.0.0.1:111 for the tests: started
 * in the foreground ({@code -f}) by {@link #start()} and stopped by {@link #close()}, or, when
 * an rpcbind already answers on 127.0.0.1:111, that one reused (said loudly, and left
 * running). {@code rpcinfo} from the same package reads what it holds.
 * <p>
 * No {@code -i}: rpcbind 1.2.x accepts SET and UNSET over TCP from 127.0.0.1 as from its
 * local socket. No {@code -h 127.0.0.1} either, though it would keep the UDP side on
 * loopback: Debian's rpcbind 1.2.6 aborts at start with it ("free(): double free detected").
 * The tests only ever connect to 127.0.0.1. Without {@code -w} it starts empty; the state files it writes
 * when stopped are removed unless they were there before, so a host rpcbind started later
 * with {@code -w} does not load the tests' mappings.
 */
public final class RpcbindDaemon implements AutoCloseable {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private static final List<Path> STATE_FILES = List.of(Path.of("/run/rpcbind/rpcbind.xdr"),
			Path.of("/run/rpcbind/portmap.xdr"));

	private final Process process;

	private final Path rpcinfo;

	private final Path log;

	private final List<Path> stateFilesToRemove;

	private RpcbindDaemon(Process process, Path rpcinfo, Path log, List<Path> stateFilesToRemove) {
		this.process = process;
		this.rpcinfo = rpcinfo;
		this.log = log;
		this.stateFilesToRemove = stateFilesToRemove;
	}

	/**
	 * Starts rpcbind, or reuses the one already answering on 127.0.0.1:111.
	 * @return the daemon
	 * @throws DaemonUnavailableException saying what is missing when it cannot be had
	 * @throws IOException if an installed rpcbind fails to start
	 * @throws InterruptedException if interrupted
	 */
	public static RpcbindDaemon start() throws IOException, InterruptedException {
		Path rpcbind = tool(ConformanceTool.RPCBIND);
		Path rpcinfo = tool(ConformanceTool.RPCINFO);
		InetSocketAddress address = RpcbindClient.defaultAddress();
		try (ServerSocket probe = new ServerSocket()) {
			probe.bind(address);
		}
		catch (BindException ex) {
			if (answers(address)) {
				return new RpcbindDaemon(null, rpcinfo, null, List.of());
			}
			String why = String.valueOf(ex.getMessage()).contains("ermission")
					? "port 111 needs root (run the tests as root, as CI does)"
					: "port 111 on 127.0.0.1 is taken by something that does not answer as rpcbind version 4";
			throw new DaemonUnavailableException("rpcbind cannot be started: " + why
					+ "; rpcbind registration and resolution against the real daemon NOT run");
		}
		List<Path> fresh = new ArrayList<>();
		for (Path state : STATE_FILES) {
			if (!Files.exists(state)) {
				fresh.add(state);
			}
		}
		Path log = Files.createTempFile("rpcbind", ".log");
		Process process = new ProcessBuilder(rpcbind.toString(), "-f").redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		RpcbindDaemon daemon = new RpcbindDaemon(process, rpcinfo, log, fresh);
		try {
			daemon.awaitAnswering(address);
		}
		catch (IOException | RuntimeException ex) {
			daemon.close();
			throw ex;
		}
		return daemon;
	}

	private static Path tool(ConformanceTool tool) {
		return tool.locate()
			.orElseThrow(() -> new DaemonUnavailableException(tool.name() + " not found: rpcbind registration and"
					+ " resolution against the real daemon NOT run; install it with 'apt-get install -y "
					+ tool.debianPackage() + "' (or set -D" + tool.property() + "=/path/to/" + tool.name() + ")"));
	}

	private static boolean answers(InetSocketAddress address) {
		try (RpcbindClient client = RpcbindClient.connect(address, Duration.ofSeconds(2))) {
			client.ping();
			return true;
		}
		catch (RpcbindException ex) {
			return false;
		}
	}

	private void awaitAnswering(InetSocketAddress address) throws IOException, InterruptedException {
		long deadline = System.nanoTime() + DEADLINE.toNanos();
		while (System.nanoTime() < deadline) {
			if (!this.process.isAlive()) {
				throw new IOException("rpcbind exited with " + this.process.exitValue() + ": " + log());
			}
			if (answers(address)) {
				return;
			}
			this.process.waitFor(50, TimeUnit.MILLISECONDS);
		}
		throw new IOException("rpcbind did not answer on " + address + " within " + DEADLINE + ": " + log());
	}

	/** @return whether the tests started this rpcbind (false: one already running was reused) */
	public boolean startedHere() {
		return this.process != null;
	}

	/** @return 127.0.0.1:111 */
	public InetSocketAddress address() {
		return RpcbindClient.defaultAddress();
	}

	/**
	 * Runs {@code rpcinfo} with the given arguments.
	 * @param arguments e.g. {@code "127.0.0.1"} for rpcbind's whole list with netids
	 * @return what it printed
	 * @throws IOException if it fails or does not finish in time
	 * @throws InterruptedException if interrupted
	 */
	public String rpcinfo(String... arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(this.rpcinfo.toString());
		command.addAll(List.of(arguments));
		Path output = Files.createTempFile("rpcinfo", ".out");
		try {
			Process run = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
			if (!run.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
				run.destroyForcibly();
				throw new IOException(String.join(" ", command) + " did not finish within " + DEADLINE);
			}
			String printed = Files.readString(output, StandardCharsets.UTF_8);
			if (run.exitValue() != 0) {
				throw new IOException(String.join(" ", command) + " failed (" + run.exitValue() + "): " + printed);
			}
			return printed;
		}
		finally {
			Files.deleteIfExists(output);
		}
	}

	private String log() {
		try {
			return (this.log != null && Files.exists(this.log)) ? Files.readString(this.log) : "";
		}
		catch (IOException ex) {
			return "(log unreadable: " + ex.getMessage() + ")";
		}
	}

	/** Stops the rpcbind the tests started; one that was reused keeps running. */
	@Override
	public void close() {
		if (this.process == null) {
			return;
		}
		this.process.destroy();
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
				this.process.waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
		try {
			for (Path state : this.stateFilesToRemove) {
				Files.deleteIfExists(state);
			}
			Files.deleteIfExists(this.log);
		}
		catch (IOException ex) {
			// A state file left behind only matters to an rpcbind started with -w.
		}
	}

	/** rpcbind cannot be had here: not installed, no root, or port 111 taken. */
	public static final class DaemonUnavailableException extends RuntimeException {

		private static final long serialVersionUID = 1L;

		DaemonUnavailableException(String message) {
			super(message);
		}

	}

}

package io.rpcrdma.benchmarks.compare;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An {@link IdleClients} child JVM on this class path, holding idle connections to one server.
 * It lives until it is closed.
 */
final class IdleClientProcess implements AutoCloseable {

	private final Process child;

	private final BufferedReader output;

	private final PrintStream commands;

	private int held;

	/**
	 * Starts the child and waits until its client side is open.
	 * @param contender whose connections it opens: one of {@link IdleConnector#CONTENDERS}
	 * @param port the server's port on the loopback address
	 * @throws IOException if it cannot be started
	 */
	IdleClientProcess(String contender, int port) throws IOException {
		String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
		this.child = new ProcessBuilder(List.of(java, "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED", "-cp",
				System.getProperty("java.class.path"), IdleClients.class.getName(), contender, Integer.toString(port)))
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		this.output = new BufferedReader(new InputStreamReader(this.child.getInputStream(), StandardCharsets.UTF_8));
		this.commands = new PrintStream(this.child.getOutputStream(), true, StandardCharsets.UTF_8);
		String line = this.output.readLine();
		if (!"READY".equals(line)) {
			this.child.destroyForcibly();
			throw new IOException("The idle client process did not start (it printed " + line + "); run java -cp <this jar> "
					+ IdleClients.class.getName() + " " + contender + " " + port + " to see why");
		}
	}

	/**
	 * Opens connections until the child holds {@code wanted}.
	 * @param wanted connections the child is to hold
	 * @throws IdleConnectionRefusedException if one could not be opened (the server or the
	 * machine refused it); the child keeps those it opened
	 * @throws IOException if the child does not answer
	 */
	void hold(int wanted) throws IOException {
		this.commands.println("OPEN " + wanted);
		String line = this.output.readLine();
		if (line != null && line.startsWith("FAILED ")) {
			String[] fields = line.split(" ", 3);
			this.held = Integer.parseInt(fields[1]);
			throw new IdleConnectionRefusedException(this.held, fields[2]);
		}
		if (line == null || !line.equals("OPEN " + wanted)) {
			throw new IOException("The idle client process answered " + line + " to OPEN " + wanted);
		}
		this.held = wanted;
	}

	/** @return the connections the child holds */
	int held() {
		return this.held;
	}

	/**
	 * @return the child's registered bytes and threads
	 * @throws IOException if the child does not answer
	 */
	Stats stats() throws IOException {
		this.commands.println("STATS");
		String line = this.output.readLine();
		if (line == null || !line.startsWith("STATS ")) {
			throw new IOException("The idle client process answered " + line + " to STATS");
		}
		String[] fields = line.substring(6).trim().split(" ");
		return new Stats(Long.parseLong(fields[0]), Integer.parseInt(fields[1]));
	}

	/**
	 * What a client process holds.
	 * @param registeredBytes what its memory pool registered; -1 for a contender that
	 * registers no memory
	 * @param threads its JVM's live threads
	 */
	record Stats(long registeredBytes, int threads) {
	}

	@Override
	public void close() throws InterruptedException {
		this.commands.close();
		if (!this.child.waitFor(60, TimeUnit.SECONDS)) {
			this.child.destroyForcibly();
		}
	}

	/** A connection the idle clients could not open: where the curve stops, and why. */
	static final class IdleConnectionRefusedException extends IOException {

		private static final long serialVersionUID = 1L;

		IdleConnectionRefusedException(int held, String reason) {
			super("after " + held + " connections of this client process: " + reason);
		}

	}

}

package io.rpcrdma.benchmarks.compare;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.rpcrdma.verbs.RdmaProviderConfig;

/**
 * A {@link CompareServer} (or, for {@link Growth}'s idle connections, the socket or gRPC
 * contender's server) in a child JVM on this class path, so that the measured JVM holds the
 * client alone. It lives until its standard input is closed.
 */
public final class ServerProcess implements AutoCloseable {

	private final Process child;

	private final InetSocketAddress address;

	private final BufferedReader output;

	private final PrintStream commands;

	/**
	 * Starts a {@link CompareServer} in a child JVM and waits until it listens.
	 * @throws IOException if it cannot be started
	 */
	public ServerProcess() throws IOException {
		this(false);
	}

	/**
	 * Starts a {@link CompareServer} in a child JVM and waits until it listens.
	 * @param libraryDefaults whether it has the library's default transport and memory pool
	 * settings rather than the benchmarks'
	 * @throws IOException if it cannot be started
	 */
	public ServerProcess(boolean libraryDefaults) throws IOException {
		this(libraryDefaults, RdmaProviderConfig.defaults());
	}

	/**
	 * Starts a {@link CompareServer} in a child JVM and waits until it listens.
	 * @param libraryDefaults whether it has the library's default transport and memory pool
	 * settings rather than the benchmarks'
	 * @param providerSettings the child's provider settings
	 * @throws IOException if it cannot be started
	 */
	public ServerProcess(boolean libraryDefaults, RdmaProviderConfig providerSettings) throws IOException {
		this(Contenders.SIW, libraryDefaults, providerSettings);
	}

	/**
	 * Starts a contender's server in a child JVM and waits until it listens.
	 * @param contender whose server: one of {@link CompareServer#CONTENDERS}
	 * @param libraryDefaults for rpcrdma, whether it has the library's default transport and
	 * memory pool settings rather than the benchmarks'
	 * @param providerSettings for rpcrdma, the child's provider settings
	 * @throws IOException if it cannot be started
	 */
	ServerProcess(String contender, boolean libraryDefaults, RdmaProviderConfig providerSettings) throws IOException {
		if (!CompareServer.CONTENDERS.contains(contender)) {
			throw new IllegalArgumentException(
					"No server for a contender named " + contender + "; choose from " + CompareServer.CONTENDERS);
		}
		String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
		List<String> command = new ArrayList<>(List.of(java, "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED", "-cp",
				System.getProperty("java.class.path"), CompareServer.class.getName(),
				CompareServer.CONTENDER + contender));
		if (libraryDefaults) {
			command.add(CompareServer.LIBRARY_DEFAULTS);
		}
		providerSettings.properties()
			.forEach((key, value) -> command.add(CompareServer.PROVIDER_SETTING + key + "=" + value));
		this.child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		this.output = new BufferedReader(new InputStreamReader(this.child.getInputStream(), StandardCharsets.UTF_8));
		this.commands = new PrintStream(this.child.getOutputStream(), true, StandardCharsets.UTF_8);
		String line = this.output.readLine();
		if (line == null || !line.startsWith("PORT ")) {
			this.child.destroyForcibly();
			throw new IOException("The " + contender + " server process did not start (it printed " + line
					+ "); run java -cp <this jar> " + CompareServer.class.getName() + " " + CompareServer.CONTENDER
					+ contender + " to see why");
		}
		this.address = new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(line.substring(5).trim()));
	}

	/** @return where the child listens */
	public InetSocketAddress address() {
		return this.address;
	}

	/** @return the child's process id, for reading its figures from {@code /proc} */
	public long pid() {
		return this.child.pid();
	}

	/** @return the child, for its CPU time */
	public ProcessHandle handle() {
		return this.child.toHandle();
	}

	/**
	 * Asks the child what it holds.
	 * @return its registered and leased bytes and the connections it counts
	 * @throws IOException if the child does not answer
	 */
	public Stats stats() throws IOException {
		this.commands.println("STATS");
		String line = this.output.readLine();
		if (line == null || !line.startsWith("STATS ")) {
			throw new IOException("The server process answered " + line + " to STATS");
		}
		String[] fields = line.substring(6).trim().split(" ");
		return new Stats(Long.parseLong(fields[0]), Long.parseLong(fields[1]), Integer.parseInt(fields[2]));
	}

	/**
	 * What a server process holds.
	 * @param registeredBytes what its memory pool registered; -1 for a contender that
	 * registers no memory (socket, gRPC)
	 * @param leasedBytes what of it is leased (posted receives, mostly); -1 likewise
	 * @param connections the connections it counts: rpcrdma's open connections, the socket's
	 * accepted and not closed, gRPC's transports ready and not terminated
	 */
	public record Stats(long registeredBytes, long leasedBytes, int connections) {
	}

	@Override
	public void close() throws IOException, InterruptedException {
		this.child.getOutputStream().close();
		if (!this.child.waitFor(10, TimeUnit.SECONDS)) {
			this.child.destroyForcibly();
		}
	}

}

package io.rpcrdma.client.balance.multiprocess;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.rpcrdma.client.balance.ServerInstance;

/**
 * A {@link CallIdServerProcess} started with this JVM's {@code java} and class path: its
 * port, its output, what it executed, and how it ends (killed, or stopped gracefully by
 * SIGTERM). {@link #close()} kills it if it still runs.
 */
public final class ServerProcess implements AutoCloseable {

	private static final Duration START_DEADLINE = Duration.ofSeconds(30);

	private final String name;

	private final Process process;

	private final Path calls;

	private final List<String> output = Collections.synchronizedList(new ArrayList<>());

	private final CompletableFuture<Integer> port = new CompletableFuture<>();

	private ServerProcess(String name, Process process, Path calls) {
		this.name = name;
		this.process = process;
		this.calls = calls;
		Thread reader = new Thread(this::readOutput, "output of " + name);
		reader.setDaemon(true);
		reader.start();
	}

	/**
	 * Starts one and waits until it listens.
	 * @param name names it in messages
	 * @param directory where its call-id file goes
	 * @param grace its graceful shutdown's grace period
	 * @return the running server
	 */
	public static ServerProcess start(String name, Path directory, Duration grace) throws Exception {
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		Path calls = directory.resolve(name + ".calls");
		// Small heap, serial GC, C1 only: three of these share two cores with the client.
		ProcessBuilder builder = new ProcessBuilder(java.toString(), "-Xmx256m", "-XX:+UseSerialGC",
				"-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
				CallIdServerProcess.class.getName(), calls.toString(), Long.toString(grace.toMillis()))
			.redirectErrorStream(true);
		ServerProcess server = new ServerProcess(name, builder.start(), calls);
		try {
			server.port.get(START_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (Exception ex) {
			server.close();
			throw new IllegalStateException("Server process " + name + " did not listen within " + START_DEADLINE
					+ "; its output: " + server.output(), ex);
		}
		return server;
	}

	private void readOutput() {
		try (BufferedReader in = new BufferedReader(
				new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = in.readLine()) != null) {
				this.output.add(line);
				if (line.startsWith("PORT ")) {
					this.port.complete(Integer.parseInt(line.substring(5).trim()));
				}
			}
		}
		catch (IOException ex) {
			this.output.add("(output unreadable: " + ex + ")");
		}
		this.port.completeExceptionally(new IllegalStateException(this.name + " ended before it listened"));
	}

	/** @return the instance a balanced caller calls */
	public ServerInstance instance() throws Exception {
		return new ServerInstance(this.name,
				new InetSocketAddress(InetAddress.getByName("127.0.0.1"), this.port.getNow(0)), Map.of());
	}

	/** @return its name */
	public String name() {
		return this.name;
	}

	/** Kills it at once (SIGKILL): calls on it end with their connections. */
	public void kill() throws InterruptedException {
		this.process.destroyForcibly();
		awaitExit();
	}

	/** SIGTERM: its shutdown hook stops the server gracefully; waits until it has exited. */
	public void stopGracefully() throws InterruptedException {
		// Through the handle: Process#destroy also closes our end of its output, and the
		// line its shutdown hook prints would be lost.
		this.process.toHandle().destroy();
		awaitExit();
	}

	private void awaitExit() throws InterruptedException {
		if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
			this.process.destroyForcibly();
			throw new IllegalStateException(this.name + " did not exit within 30 s; output: " + output());
		}
	}

	/** @return what it printed so far */
	public List<String> output() {
		synchronized (this.output) {
			return List.copyOf(this.output);
		}
	}

	/** @return the lines it recorded: {@code I <id>} or {@code N <id>}, one per execution */
	public List<String> executed() throws IOException {
		return Files.exists(this.calls) ? Files.readAllLines(this.calls, StandardCharsets.US_ASCII) : List.of();
	}

	/** Kills it if it still runs, and waits for it. */
	@Override
	public void close() throws InterruptedException {
		if (this.process.isAlive()) {
			this.process.destroyForcibly();
			this.process.waitFor(30, TimeUnit.SECONDS);
		}
	}

	@Override
	public String toString() {
		return this.name;
	}

}

package io.rpcrdma.benchmarks.compare;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link CompareServer} in a child JVM on this class path, so that the measured JVM holds
 * the client alone. It lives until its standard input is closed.
 */
public final class ServerProcess implements AutoCloseable {

	private final Process child;

	private final InetSocketAddress address;

	/**
	 * Starts a {@link CompareServer} in a child JVM and waits until it listens.
	 * @throws IOException if it cannot be started
	 */
	public ServerProcess() throws IOException {
		String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
		this.child = new ProcessBuilder(List.of(java, "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED", "-cp",
				System.getProperty("java.class.path"), CompareServer.class.getName()))
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		BufferedReader output = new BufferedReader(new InputStreamReader(this.child.getInputStream(), StandardCharsets.UTF_8));
		String line = output.readLine();
		if (line == null || !line.startsWith("PORT ")) {
			this.child.destroyForcibly();
			throw new IOException("The rpcrdma server process did not start (it printed " + line
					+ "); run java -cp <this jar> " + CompareServer.class.getName() + " to see why");
		}
		this.address = new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(line.substring(5).trim()));
	}

	/** @return where the child listens */
	/** @return where the child listens */
	public InetSocketAddress address() {
		return this.address;
	}

	@Override
	public void close() throws IOException, InterruptedException {
		this.child.getOutputStream().close();
		if (!this.child.waitFor(10, TimeUnit.SECONDS)) {
			this.child.destroyForcibly();
		}
	}

}

package io.rpcrdma.benchmarks;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@link SmallCallBenchmark}'s client in a child JVM, so that the measuring JVM holds the
 * server alone ({@link AllocationPerCall#measureServer(int)}). The child connects to the given
 * port on 127.0.0.1, prints {@code READY}, then for each line {@code <calls>} on its standard
 * input makes that many service calls and prints {@code DONE}; it ends when its standard input
 * closes.
 */
public final class SmallCallClient implements AutoCloseable {

	private final Process child;

	private final BufferedReader output;

	private final Writer input;

	/**
	 * Starts the client in a child JVM and waits until its first call was answered.
	 * @param address where the server listens (the child connects to its port on 127.0.0.1)
	 * @throws IOException if it cannot be started
	 */
	public SmallCallClient(InetSocketAddress address) throws IOException {
		String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
		this.child = new ProcessBuilder(List.of(java, "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED", "-cp",
				System.getProperty("java.class.path"), SmallCallClient.class.getName(),
				Integer.toString(address.getPort())))
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		this.output = new BufferedReader(new InputStreamReader(this.child.getInputStream(), StandardCharsets.UTF_8));
		this.input = new java.io.OutputStreamWriter(this.child.getOutputStream(), StandardCharsets.UTF_8);
		expect("READY");
	}

	/**
	 * Makes the child call {@code Calculator.add} through its service proxy, one call at a
	 * time, and waits until it has.
	 * @param calls how many
	 * @throws IOException if the child failed
	 */
	public void serviceCalls(int calls) throws IOException {
		this.input.write(calls + "\n");
		this.input.flush();
		expect("DONE");
	}

	private void expect(String word) throws IOException {
		String line = this.output.readLine();
		if (!word.equals(line)) {
			this.child.destroyForcibly();
			throw new IOException("The small-call client process printed " + line + " instead of " + word
					+ "; its standard error says why");
		}
	}

	@Override
	public void close() throws IOException, InterruptedException {
		this.input.close();
		if (!this.child.waitFor(10, TimeUnit.SECONDS)) {
			this.child.destroyForcibly();
		}
	}

	/**
	 * The child's side.
	 * @param args the server's port on 127.0.0.1
	 * @throws Exception if a call fails
	 */
	public static void main(String[] args) throws Exception {
		PrintStream out = System.out;
		SmallCallBenchmark benchmark = new SmallCallBenchmark();
		benchmark.connectTo(new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(args[0])));
		try {
			out.println("READY");
			out.flush();
			BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			for (String line = commands.readLine(); line != null; line = commands.readLine()) {
				int calls = Integer.parseInt(line.trim());
				for (int i = 0; i < calls; i++) {
					benchmark.serviceCall();
				}
				out.println("DONE");
				out.flush();
			}
		}
		finally {
			benchmark.close();
		}
	}

}

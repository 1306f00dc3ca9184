package io.rpcrdma.verbs.siw.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A running tshark capture on the loopback interface whose packet summaries are watched
 * line by line, for the Wireshark conformance tests, and a runner for tshark's offline
 * dissection. Readiness and completeness are proven with marker connections, never sleeps.
 */
public final class TsharkCapture {

	/** How long tshark may take for anything. */
	public static final Duration DEADLINE = Duration.ofSeconds(60);

	private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();


	private static final Pattern CAPTURING = Pattern.compile("Capturing on");

	private final Process process;

	private final BlockingQueue<String> packets = new LinkedBlockingQueue<>();

	private final BlockingQueue<String> diagnostics = new LinkedBlockingQueue<>();

	private final StringBuilder transcript = new StringBuilder();

	private TsharkCapture(Process process) {
		this.process = process;
		pump(process.getInputStream(), this.packets);
		pump(process.getErrorStream(), this.diagnostics);
	}

	public static TsharkCapture start(Path tshark, Path pcap, int port, int markerPort) throws Exception {
		// -P prints a summary line per captured packet although -w writes them to the file,
		// and -l flushes each line: the summaries tell us what the file already holds.
		Process process = new ProcessBuilder(tshark.toString(), "-i", "lo", "-n", "-f",
				"tcp port " + port + " or tcp port " + markerPort, "-w", pcap.toString(), "-P", "-l").start();
		TsharkCapture capture = new TsharkCapture(process);
		try {
			capture.awaitLine(capture.diagnostics, CAPTURING, "tshark to start capturing on lo");
		}
		catch (AssertionError notReady) {
			capture.stop();
			throw notReady;
		}
		return capture;
	}

	/**
	 * Makes connections to the marker port until tshark reports a packet of one of them:
	 * then the capture is live, and everything sent before that connection has been
	 * captured, since tshark reports packets in order. tshark says "Capturing on" a little
	 * before its filter is in place, so the first connection may go unseen; a later one
	 * cannot. Waiting per attempt only paces the retries: a late report of an earlier
	 * marker is as good a proof, so the outcome never depends on timing.
	 */
	public void awaitMarkerConnection(ServerSocket marker) throws Exception {
		long deadline = System.nanoTime() + DEADLINE.toNanos();
		List<String> clientPorts = new ArrayList<>();
		while (System.nanoTime() < deadline) {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress(LOOPBACK, marker.getLocalPort()));
				clientPorts.add(Integer.toString(socket.getLocalPort()));
				marker.accept().close();
			}
			// Only this call's connections count: a late report of an earlier marker's
			// packets would prove nothing about what was sent since.
			String ports = String.join("|", clientPorts);
			String arrow = " (?:\u2192|->) "; // tshark writes U+2192, older versions "->"
			Pattern ours = Pattern.compile("\\b(" + ports + ")" + arrow + marker.getLocalPort() + "\\b|\\b"
					+ marker.getLocalPort() + arrow + "(" + ports + ")\\b");
			if (pollLine(this.packets, ours, Duration.ofMillis(500))) {
				return;
			}
		}
		fail("tshark reported no packet of the marker connections to port " + marker.getLocalPort() + " within "
				+ DEADLINE + "; transcript:\n" + this.transcript);
	}

	/**
	 * Stops tshark with SIGTERM, so that it finishes the capture file, and makes sure the
	 * dumpcap it started ends too: killing tshark outright would leave dumpcap capturing.
	 */
	public void stop() throws InterruptedException {
		List<ProcessHandle> children = this.process.descendants().toList();
		this.process.destroy();
		boolean stopped = this.process.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS);
		for (ProcessHandle child : children) {
			if (child.isAlive()) {
				child.destroy();
			}
		}
		if (!stopped) {
			this.process.destroyForcibly();
			children.forEach(ProcessHandle::destroyForcibly);
			fail("tshark did not stop within " + DEADLINE + "; transcript:\n" + this.transcript);
		}
	}

	private void awaitLine(BlockingQueue<String> lines, Pattern pattern, String what) throws InterruptedException {
		if (!pollLine(lines, pattern, DEADLINE)) {
			fail("timed out after " + DEADLINE + " waiting for " + what + "; transcript:\n" + this.transcript);
		}
	}

	private boolean pollLine(BlockingQueue<String> lines, Pattern pattern, Duration wait) throws InterruptedException {
		long deadline = System.nanoTime() + wait.toNanos();
		while (true) {
			long left = deadline - System.nanoTime();
			String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
			if (line == null) {
				return false;
			}
			synchronized (this.transcript) {
				this.transcript.append(line).append('\n');
			}
			if (pattern.matcher(line).find()) {
				return true;
			}
		}
	}

	private static void pump(InputStream stream, BlockingQueue<String> lines) {
		Thread thread = new Thread(() -> {
			try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
				String line;
				while ((line = reader.readLine()) != null) {
					lines.add(line);
				}
			}
			catch (IOException ignored) {
				// the process ended
			}
		}, "tshark-output");
		thread.setDaemon(true);
		thread.start();
	}


	public static List<String> run(List<String> command) throws Exception {
		Process process = new ProcessBuilder(command).redirectErrorStream(false).start();
		BlockingQueue<String> errors = new LinkedBlockingQueue<>();
		Thread drain = new Thread(() -> {
			try {
				errors.add(new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
			}
			catch (IOException ignored) {
				// process ended
			}
		});
		drain.setDaemon(true);
		drain.start();
		List<String> lines = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
		if (!process.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
			process.destroyForcibly();
			fail("timed out running " + command);
		}
		assertThat(process.exitValue()).as("exit status of %s; stderr: %s", command, errors.poll(DEADLINE.toSeconds(),
				TimeUnit.SECONDS)).isZero();
		return lines;
	}

}

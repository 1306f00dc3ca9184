package io.rpcrdma.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The repackaged demo jar is executable: {@code java -jar} starts a server, and a second
 * {@code java -jar} with the client profile calls it, as the README shows for two hosts.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ExecutableJarIT {

	private static final String JAVA = ProcessHandle.current().info().command().orElse("java");

	@Test
	void theJarServesAndCallsTheObjectStore() throws Exception {
		Path jar = Path.of(System.getProperty("demo.jar", "target/demo-app.jar"));
		assertThat(jar).as("the repackaged jar").isRegularFile();
		int port = freePort();
		Process server = new ProcessBuilder(JAVA, "-jar", jar.toString(), "--spring.profiles.active=server",
				"--rpcrdma.server.address=127.0.0.1", "--rpcrdma.server.port=" + port, "--server.address=127.0.0.1")
			.redirectErrorStream(true)
			.start();
		try {
			CompletableFuture<List<String>> served = CompletableFuture.supplyAsync(() -> linesUntil(server,
					"Object store served over"));
			List<String> serverOutput = served.get(120, TimeUnit.SECONDS);
			assertThat(serverOutput).last().asString().contains("127.0.0.1:" + port);
			Process client = new ProcessBuilder(JAVA, "-jar", jar.toString(), "--spring.profiles.active=client",
					"--rpcrdma.client.store.address=127.0.0.1:" + port, "status")
				.redirectErrorStream(true)
				.start();
			String clientOutput = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			assertThat(client.waitFor(120, TimeUnit.SECONDS)).isTrue();
			assertThat(client.exitValue()).as(clientOutput).isZero();
			assertThat(clientOutput).contains("0 objects").contains("largest object accepted");
		}
		finally {
			server.destroy();
			if (!server.waitFor(30, TimeUnit.SECONDS)) {
				server.destroyForcibly();
			}
		}
	}

	private static List<String> linesUntil(Process process, String marker) {
		List<String> lines = new ArrayList<>();
		try {
			BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
			for (String line = in.readLine(); line != null; line = in.readLine()) {
				lines.add(line);
				if (line.contains(marker)) {
					return lines;
				}
			}
		}
		catch (IOException ex) {
			lines.add(ex.toString());
		}
		throw new AssertionError("The server ended before '" + marker + "': " + String.join("\n", lines));
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}
}

package io.rpcrdma.spring.boot.autoconfigure.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.rpcrdma.spring.boot.autoconfigure.fixture.Greeter;
import io.rpcrdma.spring.boot.autoconfigure.server.serveronly.ServerOnlyApplication;
import io.rpcrdma.spring.boot.client.ImportRpcClients;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application that serves RPC and has no web server keeps running until it is stopped
 * (issue #38, finding 1): its JVM, started here as a child process, still answers calls once
 * its {@code main} has returned, and exits on SIGTERM after the server stopped.
 */
class ServerOnlyApplicationTest {

	/**
	 * How long the child JVM may take to print each line: generous, since a Spring Boot start
	 * on a loaded 2-core CI machine took more than a minute (a deadline, not a wait).
	 */
	private static final Duration DEADLINE = Duration.ofMinutes(4);

	private static final Pattern LISTENING = Pattern.compile("RPC-over-RDMA server listening on \\S*:(\\d+)");

	private final BlockingQueue<String> output = new LinkedBlockingQueue<>();

	private final List<String> seen = new ArrayList<>();

	private Process child;

	@AfterEach
	void killChild() {
		if (this.child != null && this.child.isAlive()) {
			this.child.destroyForcibly();
		}
	}

	@Test
	void keepsRunningAfterMainReturnsAndExitsOnSigterm() throws Exception {
		this.child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), ServerOnlyApplication.class.getName(), "--rpcrdma.provider=siw",
				"--rpcrdma.server.address=127.0.0.1", "--rpcrdma.server.port=0",
				"--rpcrdma.server.shutdown-grace-period=1s")
			.redirectErrorStream(true)
			.start();
		Thread pump = new Thread(this::pumpOutput, "child-output");
		pump.setDaemon(true);
		pump.start();

		Matcher listening = LISTENING.matcher(awaitLine(LISTENING.asPredicate()));
		assertThat(listening.find()).isTrue();
		int port = Integer.parseInt(listening.group(1));
		awaitLine((line) -> line.contains(ServerOnlyApplication.MAIN_RETURNS));

		// main has returned: only a non-daemon thread of the server's keeps the JVM now.
		try (ConfigurableApplicationContext caller = new SpringApplicationBuilder(Caller.class)
			.web(WebApplicationType.NONE)
			.properties("rpcrdma.provider=siw", "rpcrdma.server.enabled=false",
					"rpcrdma.client.child.address=127.0.0.1:" + port, "rpcrdma.client.child.call-timeout=10s")
			.run()) {
			Greeter greeter = caller.getBean(Greeter.class);
			assertThat(greeter.greet("Ada")).isEqualTo("Hello, Ada");
			assertThat(this.child.isAlive()).as("child alive after a call, output: %s", this.seen).isTrue();
			assertThat(greeter.greet("Grace")).isEqualTo("Hello, Grace");
		}
		assertThat(this.child.isAlive()).isTrue();

		this.child.destroy();
		assertThat(this.child.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS))
			.as("child exits on SIGTERM, output: %s", this.seen)
			.isTrue();
	}

	private String awaitLine(Predicate<String> wanted) throws InterruptedException {
		long deadline = System.nanoTime() + DEADLINE.toNanos();
		while (true) {
			long left = deadline - System.nanoTime();
			String line = (left > 0) ? this.output.poll(left, TimeUnit.NANOSECONDS) : null;
			if (line == null) {
				throw new AssertionError("No such line within " + DEADLINE + "; output: " + this.seen);
			}
			this.seen.add(line);
			if (wanted.test(line)) {
				return line;
			}
		}
	}

	private void pumpOutput() {
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(this.child.getInputStream(), StandardCharsets.UTF_8))) {
			for (String line = reader.readLine(); line != null; line = reader.readLine()) {
				this.output.add(line);
			}
		}
		catch (IOException ex) {
			this.output.add("(output unreadable: " + ex + ")");
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@ImportRpcClients(client = "child", types = Greeter.class)
	static class Caller {

	}

}

package io.rpcrdma.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.rpcrdma.demo.cli.ErrorMessages;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The client profile with nothing listening at its address: one clear line and the
 * "unreachable" exit status, for the workload and for a command alike.
 */
@SpringBootTest
@ActiveProfiles("client")
class DemoClientModeTest {

	static final int CLOSED_PORT = closedPort();

	@DynamicPropertySource
	static void address(DynamicPropertyRegistry registry) {
		registry.add("rpcrdma.client.store.address", () -> "127.0.0.1:" + CLOSED_PORT);
	}

	@Autowired
	DemoRunner runner;

	@Test
	void aServerThatIsDownIsOneLineAndExitStatusTwo() {
		for (List<String> args : List.of(List.<String>of(), List.of("stat", "some/key"))) {
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			ByteArrayOutputStream err = new ByteArrayOutputStream();
			this.runner.printTo(new PrintStream(out, true, StandardCharsets.UTF_8),
					new PrintStream(err, true, StandardCharsets.UTF_8));
			assertThat(this.runner.run(args)).isEqualTo(ErrorMessages.UNREACHABLE);
			String message = err.toString(StandardCharsets.UTF_8);
			assertThat(message.lines()).singleElement()
				.satisfies((line) -> assertThat(line)
					.startsWith("error: Cannot reach the object store at 127.0.0.1:" + CLOSED_PORT + ": ")
					.contains("--spring.profiles.active=server")
					.contains("rpcrdma.client.store.address"));
			assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("Exception").doesNotContain("\tat ");
		}
	}

	/** A port nothing listens on: bound once to learn it, then released. */
	private static int closedPort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}

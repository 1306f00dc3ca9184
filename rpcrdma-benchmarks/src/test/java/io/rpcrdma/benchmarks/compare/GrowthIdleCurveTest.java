package io.rpcrdma.benchmarks.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.siw.SiwSettings;

/**
 * The idle-connection curve of {@link Growth}: its connections come from client JVMs of their
 * own, each contender's server counts them, and a step the server refuses ends the curve with
 * the reason instead of ending the run.
 */
class GrowthIdleCurveTest {

	@Test
	@Timeout(value = 180, unit = TimeUnit.SECONDS)
	void aStepTheServerRefusesEndsTheCurveAndSaysWhy() throws Exception {
		ByteArrayOutputStream progress = new ByteArrayOutputStream();
		// A server that has room for four queue pairs: six idle connections cannot all be had.
		Growth.IdleCurve curve = Growth.idle(Contenders.SIW, List.of(0, 3, 6),
				RdmaProviderConfig.defaults().with(SiwSettings.MAX_QUEUE_PAIRS, "4"),
				new PrintStream(progress, true, StandardCharsets.UTF_8));

		assertThat(curve.contender()).isEqualTo(Contenders.SIW);
		assertThat(curve.samples()).extracting(Growth.IdleSample::connections).containsExactly(0, 3);
		assertThat(curve.samples().get(1).clientThreads()).as("threads of the client JVMs").isPositive();
		assertThat(curve.samples().get(0).clientThreads()).as("no client JVM yet").isZero();
		assertThat(curve.stop()).startsWith("stopped before 6 idle connections: ");
		assertThat(progress.toString(StandardCharsets.UTF_8)).contains("rpcrdma-siw idle curve stopped before 6");
	}

	/**
	 * The socket server counts connections accepted and not closed, the gRPC server transports
	 * ready and not terminated: both count the idle clients' connections up, and down again
	 * when the client JVM closes them.
	 */
	@ParameterizedTest
	@ValueSource(strings = { Contenders.SOCKET, Contenders.GRPC })
	@Timeout(value = 120, unit = TimeUnit.SECONDS)
	void theServerCountsIdleConnectionsOpenAndClosed(String contender) throws Exception {
		try (ServerProcess server = new ServerProcess(contender, false, RdmaProviderConfig.defaults())) {
			assertThat(server.stats()).isEqualTo(new ServerProcess.Stats(-1, -1, 0));
			try (IdleClientProcess client = new IdleClientProcess(contender, server.address().getPort())) {
				client.hold(5);
				assertThat(Growth.settled(server, 5).registeredBytes()).as("registered by a %s server", contender)
					.isEqualTo(-1);
				assertThat(client.stats().registeredBytes()).as("registered by %s clients", contender).isEqualTo(-1);
			}
			assertThat(Growth.settled(server, 0).connections()).isZero();
		}
	}

	@Test
	void aContenderWithoutAServerIsRefusedWithTheChoices() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ServerProcess(Contenders.LOOPBACK, false, RdmaProviderConfig.defaults()))
			.withMessageContaining("rpcrdma-loopback")
			.withMessageContaining(Contenders.SOCKET);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> IdleConnector.of(Contenders.LOOPBACK, new java.net.InetSocketAddress(0)))
			.withMessageContaining("choose from");
	}

}

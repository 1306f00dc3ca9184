package io.rpcrdma.spring.boot.autoconfigure.rpcbind;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;

import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAutoConfigurations;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.spring.boot.sample.GreeterService;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * rpcrdma.server.rpcbind.*: off by default, and a start that fails saying what to do when the
 * server cannot be registered. The registration itself, against the real rpcbind, is in
 * {@link RpcbindServerRegistrationDaemonTest}.
 */
class RpcRdmaRpcbindAutoConfigurationTest {

	private final ApplicationContextRunner runner = RpcRdmaAutoConfigurations.runner("rpcbind-auto-configuration")
		.withConfiguration(AutoConfigurations.of(RpcRdmaRpcbindAutoConfiguration.class))
		.withUserConfiguration(GreeterService.class);

	@Test
	void offByDefault() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(RpcbindServerRegistration.class);
			assertThat(context.getBean(RpcRdmaServerLifecycle.class).isRunning()).isTrue();
		});
	}

	@Test
	void rpcbindNotRunningFailsTheStartNamingTheAddressAndTheProperty() throws Exception {
		int port;
		try (ServerSocket gone = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
			port = gone.getLocalPort();
		}
		this.runner
			.withPropertyValues("rpcrdma.provider=siw", "rpcrdma.server.address=127.0.0.1",
					"rpcrdma.server.rpcbind.enabled=true", "rpcrdma.server.rpcbind.address=127.0.0.1:" + port,
					"rpcrdma.server.rpcbind.timeout=2s")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(java.net.ConnectException.class);
				assertThat(context.getStartupFailure()).hasStackTraceContaining(RpcbindRegistrationFailedException.class.getName())
					.hasStackTraceContaining("rpcbind is not running at 127.0.0.1:" + port
							+ " (rpcrdma.server.rpcbind.address): start it there ('apt-get install rpcbind') or disable"
							+ " rpcrdma.server.rpcbind.enabled");
			});
	}

	@Test
	void theLoopbackProvidersInJvmAddressCannotBeRegistered() {
		this.runner.withPropertyValues("rpcrdma.server.rpcbind.enabled=true").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining("in-JVM address of the loopback provider")
				.hasStackTraceContaining("disable rpcrdma.server.rpcbind.enabled");
		});
	}

	@Test
	void aMalformedRpcbindAddressIsRejectedWithTheProperty() {
		this.runner.withPropertyValues("rpcrdma.server.rpcbind.address=localhost").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining("rpcrdma.server.rpcbind.address")
				.hasStackTraceContaining("must be host:port");
		});
	}

}

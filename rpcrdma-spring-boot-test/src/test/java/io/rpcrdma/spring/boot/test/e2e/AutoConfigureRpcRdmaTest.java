package io.rpcrdma.spring.boot.test.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.spring.boot.client.ImportRpcClients;
import io.rpcrdma.spring.boot.sample.Greeter;
import io.rpcrdma.spring.boot.sample.GreeterService;
import io.rpcrdma.spring.boot.test.AutoConfigureRpcRdma;
import io.rpcrdma.spring.boot.test.LocalRpcRdmaPort;
import io.rpcrdma.verbs.RdmaProvider;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

/**
 * {@code @AutoConfigureRpcRdma} on a full {@code @SpringBootTest}: the application's own
 * transport settings (here siw on a fixed port) give way to the test transport, the in-JVM
 * loopback provider on a host of the context's own and any free port.
 */
@SpringBootTest(classes = AutoConfigureRpcRdmaTest.App.class,
		properties = { "rpcrdma.provider=siw", "rpcrdma.server.port=20049", "rpcrdma.server.address=0.0.0.0" })
@AutoConfigureRpcRdma
class AutoConfigureRpcRdmaTest {

	@Autowired
	RdmaProvider provider;

	@Autowired
	RpcRdmaServerLifecycle lifecycle;

	@Autowired
	Greeter greeter;

	@LocalRpcRdmaPort
	int port;

	@Test
	void runsOverLoopbackOnAHostOfItsOwnAndAnyFreePort() {
		assertThat(this.provider.name()).isEqualTo("loopback");
		assertThat(this.lifecycle.localAddress()).hasValueSatisfying((address) -> {
			assertThat(address.getHostString()).startsWith("rpcrdma-test-");
			assertThat(address.getPort()).isEqualTo(this.port).isNotEqualTo(20049);
		});
		assertThat(this.greeter.greet("full context")).isEqualTo("Hello, full context");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(GreeterService.class)
	@ImportRpcClients(Greeter.class)
	static class App {

	}

}

package io.rpcrdma.spring.boot.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rpcrdma.client.RpcClient;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.spring.boot.client.ImportRpcClients;
import io.rpcrdma.spring.boot.client.RpcClientFactory;
import io.rpcrdma.spring.boot.sample.Greeter;
import io.rpcrdma.spring.boot.sample.GreeterService;
import io.rpcrdma.verbs.RdmaProvider;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

/**
 * The whole application over software iWARP on a random port: an {@code @RpcService} bean
 * served, an injected client interface calling it through a real RPC-over-RDMA connection.
 */
@SpringBootTest(classes = RpcRdmaSiwEndToEndTest.App.class, properties = { "rpcrdma.provider=siw",
		"rpcrdma.server.port=0", "rpcrdma.server.address=127.0.0.1" })
class RpcRdmaSiwEndToEndTest {

	@Autowired
	Greeter greeter;

	@Autowired
	GreeterService service;

	@Autowired
	RpcRdmaServerLifecycle lifecycle;

	@Autowired
	RpcClientFactory clients;

	@Autowired
	RdmaProvider provider;

	@Value("${" + RpcRdmaServerLifecycle.PORT_PROPERTY + "}")
	int port;

	@Test
	void injectedClientCallsTheServiceOverSoftwareIwarp() throws Exception {
		assertThat(this.provider.name()).isEqualTo("siw");
		assertThat(this.greeter.greet("Grace")).isEqualTo("Hello, Grace");
		this.service.release.countDown();
		assertThat(this.greeter.slowGreet("Ada").get(10, TimeUnit.SECONDS)).isEqualTo("Hello slowly, Ada");
		assertThat(this.service.calls).hasValue(2);

		RpcClientPool pool = this.clients.pools().get(ImportRpcClients.DEFAULT_CLIENT);
		assertThat(pool.connections()).isNotEmpty();
		long sent = pool.connections().stream().map(RpcClient::transport)
			.mapToLong((transport) -> transport.stats().inlineMessages()).sum();
		assertThat(sent).isGreaterThanOrEqualTo(2);
	}

	@Test
	void serverListensOnTheRandomPortItPublished() {
		InetSocketAddress bound = this.lifecycle.server().orElseThrow().localAddress();
		assertThat(this.port).isPositive().isEqualTo(bound.getPort()).isEqualTo(this.lifecycle.port());
		assertThat(bound.getAddress().isLoopbackAddress()).isTrue();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(GreeterService.class)
	@ImportRpcClients(Greeter.class)
	static class App {

	}

}

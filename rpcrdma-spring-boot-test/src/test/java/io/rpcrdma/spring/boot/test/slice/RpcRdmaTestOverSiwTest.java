package io.rpcrdma.spring.boot.test.slice;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.spring.boot.sample.Greeter;
import io.rpcrdma.spring.boot.test.LocalRpcRdmaPort;
import io.rpcrdma.spring.boot.test.RpcRdmaTest;
import io.rpcrdma.verbs.RdmaProvider;

import org.springframework.beans.factory.annotation.Autowired;

/**
 * The slice over software iWARP: the server on 127.0.0.1 and any free port, the client
 * under test calling it through TCP.
 */
@RpcRdmaTest(clients = Greeter.class, provider = "siw", services = EchoService.class)
class RpcRdmaTestOverSiwTest {

	@Autowired
	Greeter greeter;

	@Autowired
	RdmaProvider provider;

	@Autowired
	RpcRdmaServerLifecycle lifecycle;

	@LocalRpcRdmaPort
	int port;

	@Test
	void clientCallsTheServiceOverSiwOnTheLoopbackInterface() {
		assertThat(this.provider.name()).isEqualTo("siw");
		assertThat(this.greeter.greet("siw")).isEqualTo("Echo siw");
		assertThat(this.lifecycle.localAddress()).hasValueSatisfying((address) -> {
			assertThat(address.getAddress().isLoopbackAddress()).isTrue();
			assertThat(address.getPort()).isEqualTo(this.port);
		});
	}

}

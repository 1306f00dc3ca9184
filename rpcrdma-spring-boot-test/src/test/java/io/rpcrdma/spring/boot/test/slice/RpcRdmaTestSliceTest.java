package io.rpcrdma.spring.boot.test.slice;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.spring.boot.sample.Greeter;
import io.rpcrdma.spring.boot.test.LocalRpcRdmaPort;
import io.rpcrdma.spring.boot.test.RpcRdmaTest;
import io.rpcrdma.verbs.RdmaProvider;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

/**
 * The {@code @RpcRdmaTest} slice: only RPC infrastructure and {@code @RpcService} beans, a
 * client of the service under test, the loopback provider on an in-JVM host name of the
 * context's own, and the port injectable.
 */
@RpcRdmaTest(clients = Greeter.class)
class RpcRdmaTestSliceTest {

	@Autowired
	Greeter greeter;

	@Autowired
	ApplicationContext context;

	@Autowired
	RpcRdmaServerLifecycle lifecycle;

	@LocalRpcRdmaPort
	int port;

	@Test
	void clientUnderTestCallsTheServiceOverLoopback() {
		assertThat(this.greeter).isNotInstanceOf(EchoService.class);
		assertThat(this.greeter.greet("slice")).isEqualTo("Echo slice");
		assertThat(this.context.getBean(RdmaProvider.class).name()).isEqualTo("loopback");
	}

	@Test
	void sliceHoldsOnlyRpcBeans() {
		assertThat(this.context.getBeansOfType(EchoService.class)).hasSize(1);
		assertThat(this.context.getBeansOfType(UnrelatedComponent.class)).isEmpty();
	}

	@Test
	void serverListensOnAnInJvmHostOfItsOwnAndThePortIsInjected() {
		assertThat(this.lifecycle.localAddress()).hasValueSatisfying((address) -> {
			assertThat(address.getHostString()).startsWith("rpcrdma-test-");
			assertThat(address.getPort()).isEqualTo(this.port);
		});
	}

	/**
	 * A nested slice naming its own address gets a context of its own (the address is part
	 * of the context cache key), listening next to the outer one, which names none.
	 */
	@Nested
	@RpcRdmaTest(clients = Greeter.class, address = "nested-slice")
	class NestedSlice {

		@Autowired
		ApplicationContext nestedContext;

		@Autowired
		Greeter nestedGreeter;

		@Test
		void nestedContextIsSeparateAndListensOnItsOwnAddress() {
			assertThat(this.nestedContext.getBean(RpcRdmaServerLifecycle.class).localAddress())
				.hasValueSatisfying((address) -> assertThat(address.getHostString()).isEqualTo("nested-slice"));
			assertThat(this.nestedGreeter.greet("nested")).isEqualTo("Echo nested");
		}

	}

}

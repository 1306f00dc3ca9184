package io.rpcrdma.spring.boot.autoconfigure.rpcbind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rpcrdma.discovery.rpcbind.ProgramNotRegisteredException;
import io.rpcrdma.discovery.rpcbind.RpcbindDaemon;
import io.rpcrdma.discovery.rpcbind.RpcbindDaemonExtension;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAutoConfigurations;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.spring.boot.client.RpcClientFactory;
import io.rpcrdma.spring.boot.sample.Greeter;
import io.rpcrdma.spring.boot.sample.GreeterService;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A named client configured with {@code rpcbind://127.0.0.1} reaches the server that
 * registered with the real rpcbind (over software iWARP), and without a registration its call
 * fails saying which host, which program, and what the host has.
 */
@Tag("conformance")
@ExtendWith(RpcbindDaemonExtension.class)
class RpcbindClientAddressDaemonTest {

	private final ApplicationContextRunner client = RpcRdmaAutoConfigurations.runner("unused")
		.withPropertyValues("rpcrdma.provider=siw", "rpcrdma.server.enabled=false",
				"rpcrdma.client.greeters.address=rpcbind://127.0.0.1");

	@Test
	void aClientWithAnRpcbindAddressCallsTheServerRegisteredThere(RpcbindDaemon rpcbind) {
		RpcRdmaAutoConfigurations.runner("unused")
			.withConfiguration(AutoConfigurations.of(RpcRdmaRpcbindAutoConfiguration.class))
			.withUserConfiguration(GreeterService.class)
			.withPropertyValues("rpcrdma.provider=siw", "rpcrdma.server.address=127.0.0.1",
					"rpcrdma.server.rpcbind.enabled=true", "rpcrdma.server.rpcbind.address=127.0.0.1:111")
			.run((server) -> {
				assertThat(server).hasNotFailed();
				InetSocketAddress bound = server.getBean(RpcRdmaServerLifecycle.class).server().orElseThrow().localAddress();
				this.client.run((context) -> {
					RpcClientFactory factory = context.getBean(RpcClientFactory.class);
					Greeter greeter = factory.createClient(Greeter.class, "greeters");

					assertThat(greeter.greet("rpcbind")).isEqualTo("Hello, rpcbind");

					assertThat(server.getBean(GreeterService.class).calls).hasValue(1);
					assertThat(factory.instances().get("greeters")).singleElement().satisfies((stats) -> {
						assertThat(stats.instance().id()).isEqualTo("rpcbind://127.0.0.1:111/536872960/1");
						assertThat(stats.instance().address()).isEqualTo(bound);
					});
					assertThat(factory.pools()).containsOnlyKeys("greeters");
				});
			});
	}

	@Test
	void aHostWithoutTheProgramFailsTheCallNamingTheHostAndTheProgram(RpcbindDaemon rpcbind) {
		this.client.run((context) -> {
			Greeter greeter = context.getBean(RpcClientFactory.class).createClient(Greeter.class, "greeters");

			assertThatThrownBy(() -> greeter.greet("nobody")).isInstanceOf(ProgramNotRegisteredException.class)
				.hasMessageContaining("Program 0x20000800 version 1 is not registered for RPC-over-RDMA")
				.hasMessageContaining("with rpcbind at 127.0.0.1:111")
				.hasMessageContaining("it has no mapping of that program at all");
		});
	}

}

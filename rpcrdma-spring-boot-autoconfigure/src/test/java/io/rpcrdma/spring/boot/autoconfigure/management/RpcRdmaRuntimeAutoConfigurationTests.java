package io.rpcrdma.spring.boot.autoconfigure.management;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.rpcrdma.spring.boot.autoconfigure.client.RpcRdmaClientAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.export.RpcRdmaServiceExportAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.fixture.LoopbackRpcRdma;
import io.rpcrdma.spring.boot.autoconfigure.fixture.LoopbackRuntimeConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.provider.RpcRdmaProviderAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.service.RpcRdmaServiceAutoConfiguration;

class RpcRdmaRuntimeAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RpcRdmaProviderAutoConfiguration.class,
				RpcRdmaServiceAutoConfiguration.class, RpcRdmaServiceExportAutoConfiguration.class,
				RpcRdmaServerAutoConfiguration.class, RpcRdmaClientAutoConfiguration.class,
				RpcRdmaRuntimeAutoConfiguration.class))
		.withPropertyValues("rpcrdma.provider=loopback");

	@Test
	void describesTheStartersProviderMemoryAndConfiguredClients() {
		this.runner.withPropertyValues("rpcrdma.client.billing.address=billing.example:20049").run((context) -> {
			RpcRdmaRuntime runtime = context.getBean(RpcRdmaRuntime.class);
			assertThat(runtime.providerName()).hasValue("loopback");
			assertThat(runtime.memoryPool()).isPresent();
			assertThat(runtime.serverEnabled()).as("nothing is exported, so no server should listen").isFalse();
			assertThat(runtime.server()).isEmpty();
			assertThat(runtime.serverPort()).isEqualTo(-1);
			assertThat(runtime.exportedServices()).isEmpty();
			assertThat(runtime.clientPools()).as("pools open on a client's first call").isEmpty();
			assertThat(runtime.clientNames()).containsExactly("billing");
		});
	}

	@Test
	void backsOffWithoutAProvider() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RpcRdmaRuntimeAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(RpcRdmaRuntime.class));
	}

	@Test
	void backsOffForTheApplicationsOwnRuntime() {
		this.runner.withUserConfiguration(LoopbackRuntimeConfiguration.class)
			.run((context) -> assertThat(context).getBean(RpcRdmaRuntime.class).isInstanceOf(LoopbackRpcRdma.class));
	}

}

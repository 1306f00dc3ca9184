package io.rpcrdma.spring.boot.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.rpcrdma.spring.boot.autoconfigure.fixture.LoopbackRuntimeConfiguration;

class RpcRdmaEndpointAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RpcRdmaEndpointAutoConfiguration.class))
		.withUserConfiguration(LoopbackRuntimeConfiguration.class);

	@Test
	void providesTheEndpointWhenExposed() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=rpcrdma")
			.run((context) -> assertThat(context).hasSingleBean(RpcRdmaManagementEndpoint.class));
	}

	@Test
	void providesNoEndpointUnlessExposed() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(RpcRdmaManagementEndpoint.class));
	}

	@Test
	void providesNoEndpointWhenItsAccessIsNone() {
		this.runner
			.withPropertyValues("management.endpoints.web.exposure.include=rpcrdma",
					"management.endpoint.rpcrdma.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(RpcRdmaManagementEndpoint.class));
	}

	@Test
	void providesNoEndpointWithoutActuator() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=rpcrdma")
			.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.run((context) -> assertThat(context).doesNotHaveBean(RpcRdmaManagementEndpoint.class));
	}

	@Test
	void providesNoEndpointWithoutTheRuntime() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RpcRdmaEndpointAutoConfiguration.class))
			.withPropertyValues("management.endpoints.web.exposure.include=rpcrdma")
			.run((context) -> assertThat(context).doesNotHaveBean(RpcRdmaManagementEndpoint.class));
	}

}

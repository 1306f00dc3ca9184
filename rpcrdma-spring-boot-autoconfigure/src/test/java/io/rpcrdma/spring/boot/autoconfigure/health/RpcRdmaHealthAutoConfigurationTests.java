package io.rpcrdma.spring.boot.autoconfigure.health;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.rpcrdma.spring.boot.autoconfigure.fixture.LoopbackRuntimeConfiguration;

class RpcRdmaHealthAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RpcRdmaHealthAutoConfiguration.class));

	@Test
	void contributesWhenTheRuntimeExists() {
		this.runner.withUserConfiguration(LoopbackRuntimeConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(RpcRdmaHealthIndicator.class)
				.hasBean("rpcrdmaHealthContributor"));
	}

	@Test
	void backsOffWithoutTheRuntime() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(RpcRdmaHealthIndicator.class));
	}

	@Test
	void backsOffWhenTheIndicatorIsDisabled() {
		this.runner.withUserConfiguration(LoopbackRuntimeConfiguration.class)
			.withPropertyValues("management.health.rpcrdma.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(RpcRdmaHealthIndicator.class));
	}

	@Test
	void backsOffWithoutSpringBootHealth() {
		this.runner.withUserConfiguration(LoopbackRuntimeConfiguration.class)
			.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
			.run((context) -> assertThat(context).doesNotHaveBean("rpcrdmaHealthContributor"));
	}

	@Test
	void backsOffForTheApplicationsOwnContributorOfTheSameName() {
		this.runner.withUserConfiguration(LoopbackRuntimeConfiguration.class)
			.withBean("rpcrdmaHealthContributor", HealthIndicator.class, () -> () -> Health.outOfService().build())
			.run((context) -> {
				assertThat(context).doesNotHaveBean(RpcRdmaHealthIndicator.class);
				assertThat(context.getBean("rpcrdmaHealthContributor", HealthIndicator.class).health().getStatus().getCode())
					.isEqualTo("OUT_OF_SERVICE");
			});
	}

}

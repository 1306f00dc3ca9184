package io.rpcrdma.spring.boot.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.observation.ObservationRegistry;
import io.rpcrdma.service.ServiceCallObserver;
import io.rpcrdma.spring.boot.autoconfigure.fixture.LoopbackRuntimeConfiguration;

class RpcRdmaMetricsAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RpcRdmaMetricsAutoConfiguration.class));

	@Test
	void observesCallsThroughTheApplicationsObservationRegistry() {
		this.runner.withBean(ObservationRegistry.class, ObservationRegistry::create)
			.run((context) -> assertThat(context).getBean(ServiceCallObserver.class)
				.isInstanceOf(ObservationServiceCallObserver.class));
	}

	@Test
	void observesNothingWithoutAnObservationRegistry() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(ServiceCallObserver.class));
	}

	@Test
	void observesNothingWithoutMicrometerObservation() {
		this.runner.withBean(ServiceCallObserver.class, () -> ServiceCallObserver.NONE)
			.withClassLoader(new FilteredClassLoader(ObservationRegistry.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ObservationServiceCallObserver.class));
	}

	@Test
	void backsOffForTheApplicationsOwnObserver() {
		ServiceCallObserver own = (side, service, procedure, endpoint) -> ServiceCallObserver.Observation.NONE;
		this.runner.withBean(ObservationRegistry.class, ObservationRegistry::create)
			.withBean(ServiceCallObserver.class, () -> own)
			.run((context) -> assertThat(context).getBean(ServiceCallObserver.class).isSameAs(own));
	}

	@Test
	void bindsMetersOfMemoryServerAndClientsWhenTheRuntimeExists() {
		this.runner.withUserConfiguration(LoopbackRuntimeConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(RpcRdmaMemoryMetrics.class)
				.hasSingleBean(RpcRdmaServerMetrics.class)
				.hasSingleBean(RpcRdmaClientMetrics.class));
	}

	@Test
	void bindsNoMetersWithoutTheRuntime() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(MeterBinder.class));
	}

	@Test
	void bindsNoMetersWithoutMicrometer() {
		this.runner.withUserConfiguration(LoopbackRuntimeConfiguration.class)
			.withClassLoader(new FilteredClassLoader(MeterBinder.class))
			.run((context) -> assertThat(context).doesNotHaveBean(RpcRdmaServerMetrics.class));
	}

	@Test
	void backsOffForTheApplicationsOwnBinders() {
		this.runner.withUserConfiguration(LoopbackRuntimeConfiguration.class)
			.withBean("customServerMetrics", RpcRdmaServerMetrics.class,
					() -> new RpcRdmaServerMetrics(new io.rpcrdma.spring.boot.autoconfigure.fixture.LoopbackRpcRdma(
							ServiceCallObserver.NONE, false)))
			.run((context) -> assertThat(context).hasSingleBean(RpcRdmaServerMetrics.class)
				.hasBean("customServerMetrics"));
	}

}

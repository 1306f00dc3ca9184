package io.rpcrdma.spring.boot.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.Environment;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.rpcrdma.service.Idempotent;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;
import io.rpcrdma.service.ServiceCallObserver;
import io.rpcrdma.spring.boot.RpcService;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAutoConfigurations;
import io.rpcrdma.spring.boot.autoconfigure.fixture.LoopbackRuntimeConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.management.RpcRdmaRuntimeAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.spring.boot.client.RpcClientFactory;

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

	@Test
	void clientRetriesCountTheFailoversOfTheClientsBalancedCaller() {
		ApplicationContextRunner servers = RpcRdmaAutoConfigurations.runner("retried-a")
			.withUserConfiguration(HeldLookup.class)
			.withPropertyValues("rpcrdma.server.shutdown-grace-period=0s");
		servers.run((a) -> servers.withPropertyValues("rpcrdma.server.address=retried-b").run((b) -> {
			String addresses = "retried-a:" + a.getBean(RpcRdmaServerLifecycle.class).port() + ",retried-b:"
					+ b.getBean(RpcRdmaServerLifecycle.class).port();
			RpcRdmaAutoConfigurations.runner("retried-client")
				.withConfiguration(AutoConfigurations.of(RpcRdmaRuntimeAutoConfiguration.class,
						RpcRdmaMetricsAutoConfiguration.class))
				.withPropertyValues("rpcrdma.server.enabled=false", "rpcrdma.client.pair.address=" + addresses,
						"rpcrdma.client.pair.retries=2")
				.run((context) -> {
					SimpleMeterRegistry meters = new SimpleMeterRegistry();
					context.getBean(RpcRdmaClientMetrics.class).bindTo(meters);
					RpcClientFactory factory = context.getBean(RpcClientFactory.class);
					Lookup lookup = factory.createClient(Lookup.class, "pair");
					assertThat(retries(meters)).isZero();

					CompletableFuture<String> held = lookup.find("key");
					HeldLookup onA = a.getBean(HeldLookup.class);
					HeldLookup onB = b.getBean(HeldLookup.class);
					await().atMost(Duration.ofSeconds(10))
						.until(() -> onA.entered.getCount() == 0 || onB.entered.getCount() == 0);
					boolean heldByA = onA.entered.getCount() == 0;
					// The other server answers at once; the one holding the call stops under it.
					(heldByA ? onB : onA).release.countDown();
					(heldByA ? a : b).close();
					(heldByA ? onA : onB).release.countDown();

					assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo((heldByA ? "retried-b" : "retried-a") + ": key");
					assertThat(factory.failovers("pair")).isEqualTo(1);
					assertThat(retries(meters)).as("the idempotent call sent again to the other server").isEqualTo(1);
				});
		}));
	}

	private static double retries(SimpleMeterRegistry meters) {
		return meters.get("rpcrdma.client.retries").tag("client", "pair").functionCounter().count();
	}

	/** A lookup that can be sent again: it changes nothing. */
	@RpcProgram(number = 0x20000803, version = 1, name = "Lookup")
	public interface Lookup {

		@RpcProcedure(1)
		@Idempotent
		CompletableFuture<String> find(String key);

	}

	/** Answers with its server's host name once {@link #release} opens. */
	@RpcService
	public static class HeldLookup implements Lookup {

		final CountDownLatch entered = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		private final String host;

		public HeldLookup(Environment environment) {
			this.host = environment.getProperty("rpcrdma.server.address");
		}

		@Override
		public CompletableFuture<String> find(String key) {
			this.entered.countDown();
			try {
				if (!this.release.await(30, TimeUnit.SECONDS)) {
					throw new IllegalStateException("never released");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
			return CompletableFuture.completedFuture(this.host + ": " + key);
		}

	}

}

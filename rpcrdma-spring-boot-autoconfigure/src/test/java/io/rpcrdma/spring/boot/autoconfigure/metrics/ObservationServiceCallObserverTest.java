package io.rpcrdma.spring.boot.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.rpcrdma.service.CallSide;
import io.rpcrdma.service.ServiceCallObserver;
import io.rpcrdma.spring.boot.autoconfigure.fixture.Greeter;
import io.rpcrdma.spring.boot.autoconfigure.fixture.LoopbackRpcRdma;

class ObservationServiceCallObserverTest {

	/** Closed after each test by JUnit (a test that never started one leaves it {@code null}). */
	@AutoClose
	private LoopbackRpcRdma rpc;

	@Test
	void bothSidesOfEachCallAreTimedWithServiceMethodOutcomeAndConveyance() throws Exception {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		ObservationRegistry observations = ObservationRegistry.create();
		observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
		this.rpc = new LoopbackRpcRdma(new ObservationServiceCallObserver(observations), true).startServer();
		Greeter greeter = this.rpc.greeter("greeter");

		assertThat(greeter.greet("a")).isEqualTo("Hello, a");
		assertThat(greeter.greet("b")).isEqualTo("Hello, b");
		assertThatThrownBy(() -> greeter.fail("on purpose")).isInstanceOf(IllegalStateException.class);

		Timer clientSuccesses = meters.get("rpcrdma.client.calls")
			.tags("service", "Greeter", "method", "greet", "outcome", "success", "conveyance", "inline")
			.timer();
		assertThat(clientSuccesses.count()).isEqualTo(2);
		assertThat(clientSuccesses.totalTime(TimeUnit.NANOSECONDS)).isPositive();
		assertThat(meters.get("rpcrdma.client.calls")
			.tags("service", "Greeter", "method", "fail", "outcome", "fault", "conveyance", "inline")
			.timer()
			.count()).isEqualTo(1);
		// The server ends its observation once the reply is handed to the transport, which may
		// be a moment after the client has its reply.
		await().atMost(LoopbackRpcRdma.DEADLINE).untilAsserted(() -> {
			assertThat(meters.get("rpcrdma.server.calls")
				.tags("service", "Greeter", "method", "greet", "outcome", "success", "conveyance", "inline")
				.timer()
				.count()).isEqualTo(2);
			assertThat(meters.get("rpcrdma.server.calls")
				.tags("service", "Greeter", "method", "fail", "outcome", "fault", "error", "IllegalStateException")
				.timer()
				.count()).isEqualTo(1);
		});
	}

	@Test
	void observationsCarryTheEndpointAsHighCardinalityAndTheFailureAsError() {
		TestObservationRegistry observations = TestObservationRegistry.create();
		this.rpc = new LoopbackRpcRdma(new ObservationServiceCallObserver(observations), true).startServer();
		Greeter greeter = this.rpc.greeter("greeter");

		assertThatThrownBy(() -> greeter.fail("on purpose")).isInstanceOf(IllegalStateException.class);

		await().atMost(LoopbackRpcRdma.DEADLINE).untilAsserted(() -> TestObservationRegistryAssert
			.assertThat(observations)
			.hasNumberOfObservationsWithNameEqualTo("rpcrdma.server.calls", 1)
			.hasNumberOfObservationsWithNameEqualTo("rpcrdma.client.calls", 1));
		TestObservationRegistryAssert.assertThat(observations)
			.hasObservationWithNameEqualTo("rpcrdma.client.calls")
			.that()
			.hasContextualNameEqualTo("Greeter/fail")
			.hasLowCardinalityKeyValue("outcome", "fault")
			.hasHighCardinalityKeyValueWithKey("endpoint")
			.hasBeenStopped()
			.assertThatError()
			.isInstanceOf(IllegalStateException.class);
		TestObservationRegistryAssert.assertThat(observations)
			.hasObservationWithNameEqualTo("rpcrdma.server.calls")
			.that()
			.hasLowCardinalityKeyValue("method", "fail")
			.assertThatError()
			.isInstanceOf(IllegalStateException.class)
			.hasMessage("on purpose");
	}

	@Test
	void theFirstEndedCallToEachEndpointIsReportedOnceEvenWithoutObservationHandlers() {
		AtomicInteger reported = new AtomicInteger();
		ObservationServiceCallObserver observer = new ObservationServiceCallObserver(ObservationRegistry.create(),
				reported::incrementAndGet);
		this.rpc = new LoopbackRpcRdma(observer, true).startServer();
		Greeter first = this.rpc.greeter("first");
		Greeter second = this.rpc.greeter("second");

		assertThat(first.greet("a")).isEqualTo("Hello, a");
		assertThat(reported).hasValue(1);
		assertThat(first.greet("b")).isEqualTo("Hello, b");
		assertThat(reported).as("an endpoint already seen").hasValue(1);
		assertThat(second.greet("c")).isEqualTo("Hello, c");
		assertThat(reported).as("both pools reach the same server: one endpoint").hasValue(1);
	}

	@Test
	void aNoopRegistryObservesNothing() {
		ServiceCallObserver observer = new ObservationServiceCallObserver(ObservationRegistry.NOOP);

		assertThat(observer.start(CallSide.SERVER, null, null, null)).isSameAs(ServiceCallObserver.Observation.NONE);
	}

}

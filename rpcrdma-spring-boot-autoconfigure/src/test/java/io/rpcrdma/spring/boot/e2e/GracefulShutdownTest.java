package io.rpcrdma.spring.boot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.client.PoolExhaustedException;
import io.rpcrdma.client.RpcCallException;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.spring.boot.client.ImportRpcClients;
import io.rpcrdma.spring.boot.sample.Greeter;
import io.rpcrdma.spring.boot.sample.GreeterService;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;

/**
 * Closing the application: the server stops first, a call in flight finishes and gets its
 * reply, calls arriving meanwhile are not run and fail with a clear error, and nothing hangs.
 */
class GracefulShutdownTest {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	private ConfigurableApplicationContext context;

	@AfterEach
	void closeContext() {
		if (this.context != null) {
			this.context.getBean(GreeterService.class).release.countDown();
			this.context.close();
		}
	}

	@Test
	void callInFlightFinishesNewCallsAreRefusedAndCloseCompletes() throws Exception {
		this.context = new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
			.properties("rpcrdma.provider=loopback", "rpcrdma.server.address=graceful-shutdown",
					"rpcrdma.server.port=0", "rpcrdma.server.shutdown-grace-period=15s",
					"rpcrdma.client.default.call-timeout=30s")
			.run();
		Greeter greeter = this.context.getBean(Greeter.class);
		GreeterService service = this.context.getBean(GreeterService.class);
		RpcRdmaServerLifecycle lifecycle = this.context.getBean(RpcRdmaServerLifecycle.class);
		assertThat(greeter.greet("warm-up")).isEqualTo("Hello, warm-up");

		CompletableFuture<String> inFlight = greeter.slowGreet("Ada");
		assertThat(service.entered.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		ConfigurableApplicationContext closing = this.context;
		CompletableFuture<Void> closed = CompletableFuture.runAsync(closing::close);
		await().atMost(DEADLINE).until(() -> !lifecycle.isRunning());
		int callsRun = service.calls.get();

		CompletableFuture<String> late = CompletableFuture.supplyAsync(() -> greeter.greet("late"));
		service.release.countDown();

		assertThat(inFlight.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("Hello slowly, Ada");
		closed.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
		Throwable refused = catchThrowable(() -> late.get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
		assertThat(refused).cause()
			.isInstanceOfAny(RpcCallException.class, PoolExhaustedException.class)
			.hasMessageContaining("graceful-shutdown");
		assertThat(service.calls).hasValue(callsRun);
		assertThat(lifecycle.port()).isEqualTo(-1);

		assertThatExceptionOfType(PoolExhaustedException.class).isThrownBy(() -> greeter.greet("after close"))
			.withMessageContaining("closed");
		this.context = null;
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(GreeterService.class)
	@ImportRpcClients(Greeter.class)
	static class App {

	}

}

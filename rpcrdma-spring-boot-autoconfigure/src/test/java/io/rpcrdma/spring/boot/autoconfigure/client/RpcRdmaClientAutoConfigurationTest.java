package io.rpcrdma.spring.boot.autoconfigure.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.rpcrdma.client.PoolExhaustedException;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.client.balance.BalancedCaller;
import io.rpcrdma.client.balance.BalancerKind;
import io.rpcrdma.client.balance.InstanceState;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.service.ServiceClientFactory;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAutoConfigurations;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.spring.boot.client.ImportRpcClients;
import io.rpcrdma.spring.boot.client.RpcClientCustomizer;
import io.rpcrdma.spring.boot.client.RpcClientFactory;
import io.rpcrdma.spring.boot.client.RpcClientSpec;
import io.rpcrdma.spring.boot.sample.Greeter;
import io.rpcrdma.spring.boot.sample.GreeterService;
import io.rpcrdma.verbs.RdmaProvider;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.stereotype.Component;

/**
 * The client auto-configuration: {@link RpcClientFactory}, {@link ImportRpcClients} proxy
 * beans with constructor injection, named client settings, balancing and ejection over
 * addresses, customizers and back-off.
 */
class RpcRdmaClientAutoConfigurationTest {

	private final ApplicationContextRunner runner = RpcRdmaAutoConfigurations.runner("client-auto-configuration");

	@Test
	void importedClientIsInjectedThroughTheConstructorAndCallsTheLocalServer() {
		this.runner.withUserConfiguration(GreeterService.class, ImportGreeter.class, GreeterConsumer.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(RpcClientFactory.class);
				GreeterConsumer consumer = context.getBean(GreeterConsumer.class);
				assertThat(consumer.greeter).isNotNull().isNotInstanceOf(GreeterService.class);
				assertThat(consumer.named).isSameAs(consumer.greeter);
				assertThat(consumer.greeter.greet("Ada")).isEqualTo("Hello, Ada");
				assertThat(context.getBean(RpcClientFactory.class).pools()).containsOnlyKeys("default");
			});
	}

	@Test
	void namedClientWithSeveralAddressesCallsThemRoundRobin() {
		ApplicationContextRunner servers = RpcRdmaAutoConfigurations.runner("round-robin-a")
			.withUserConfiguration(GreeterService.class);
		servers.run((first) -> servers.withPropertyValues("rpcrdma.server.address=round-robin-b").run((second) -> {
			int portA = first.getBean(RpcRdmaServerLifecycle.class).port();
			int portB = second.getBean(RpcRdmaServerLifecycle.class).port();
			this.runner.withPropertyValues("rpcrdma.server.enabled=false",
					"rpcrdma.client.pair.address=round-robin-a:" + portA + ",round-robin-b:" + portB)
				.run((context) -> {
					Greeter greeter = context.getBean(RpcClientFactory.class).createClient(Greeter.class, "pair");
					for (int i = 0; i < 4; i++) {
						assertThat(greeter.greet("call " + i)).isEqualTo("Hello, call " + i);
					}
					assertThat(first.getBean(GreeterService.class).calls).hasValue(2);
					assertThat(second.getBean(GreeterService.class).calls).hasValue(2);
					assertThat(context.getBean(RpcClientFactory.class).pools()).hasSize(2)
						.allSatisfy((name, pool) -> assertThat(name).startsWith("pair["));
				});
		}));
	}

	@Test
	void rpcbindAddressesAreParsedApartFromServerAddressesWithPort111ByDefault() {
		this.runner.withPropertyValues("rpcrdma.server.enabled=false",
				"rpcrdma.client.mixed.address=rpcbind://127.0.0.1,RPCBIND://[::1]:1111,mixed-server:20049")
			.run((context) -> {
				RpcClientSpec spec = context.getBean(RpcClientFactory.class).spec("mixed");
				assertThat(spec.rpcbinds()).containsExactly(
						new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 111),
						new InetSocketAddress(InetAddress.getByName("::1"), 1111));
				assertThat(spec.addresses()).extracting(InetSocketAddress::getHostString, InetSocketAddress::getPort)
					.containsExactly(tuple("mixed-server", 20049));
				assertThat(spec.usesRpcbind()).isTrue();
				assertThat(spec.callsLocalServer()).isFalse();
			});
	}

	@Test
	void aNamedClientPassesOverAStoppedServerAndEjectsIt() {
		ApplicationContextRunner servers = RpcRdmaAutoConfigurations.runner("failover-a")
			.withUserConfiguration(GreeterService.class);
		servers.run((first) -> servers.withPropertyValues("rpcrdma.server.address=failover-b").run((second) -> {
			int portA = first.getBean(RpcRdmaServerLifecycle.class).port();
			int portB = second.getBean(RpcRdmaServerLifecycle.class).port();
			this.runner.withPropertyValues("rpcrdma.server.enabled=false",
					"rpcrdma.client.pair.address=failover-a:" + portA + ",failover-b:" + portB,
					"rpcrdma.client.pair.balancer=least-outstanding", "rpcrdma.client.pair.ejection.consecutive-failures=2",
					"rpcrdma.client.pair.ejection.probe-interval=1h",
					"rpcrdma.client.pair.ejection.max-probe-interval=1h")
				.run((context) -> {
					RpcClientFactory factory = context.getBean(RpcClientFactory.class);
					Greeter greeter = factory.createClient(Greeter.class, "pair");
					for (int i = 0; i < 2; i++) {
						assertThat(greeter.greet("call " + i)).isEqualTo("Hello, call " + i);
					}
					assertThat(first.getBean(GreeterService.class).calls).hasValue(1);
					io.rpcrdma.client.RpcClientPool poolOfA = factory.pools()
						.entrySet()
						.stream()
						.filter((entry) -> entry.getKey().startsWith("pair[failover-a"))
						.map(java.util.Map.Entry::getValue)
						.findFirst()
						.orElseThrow(() -> new AssertionError("no pool to failover-a in " + factory.pools().keySet()));

					first.close();
					awaitUnreachable(poolOfA);
					for (int i = 0; i < 6; i++) {
						assertThat(greeter.greet("after " + i)).isEqualTo("Hello, after " + i);
					}

					assertThat(second.getBean(GreeterService.class).calls).hasValue(1 + 6);
					assertThat(factory.instances().get("pair")).hasSize(2).anySatisfy((stats) -> {
						assertThat(stats.instance().id()).isEqualTo("failover-a:" + portA);
						assertThat(stats.state()).isEqualTo(InstanceState.EJECTED);
					});
				});
		}));
	}

	private static void awaitUnreachable(io.rpcrdma.client.RpcClientPool pool) {
		long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (!pool.isUnreachable()) {
			if (System.nanoTime() > end) {
				throw new AssertionError("The pool never saw its server go");
			}
			java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
		}
	}

	@Test
	void balancerAndEjectionPropertiesShapeTheBalancing() {
		this.runner
			.withPropertyValues("rpcrdma.client.orders.address=orders-host:20049",
					"rpcrdma.client.orders.balancer=least-outstanding", "rpcrdma.client.orders.retries=4",
					"rpcrdma.client.orders.ejection.consecutive-failures=3",
					"rpcrdma.client.orders.ejection.probe-timeout=750ms")
			.run((context) -> {
				BalancedCaller.Config balancing = context.getBean(RpcClientFactory.class).spec("orders").balancing();
				assertThat(balancing.balancer()).isEqualTo(BalancerKind.LEAST_OUTSTANDING);
				assertThat(balancing.ejection().consecutiveFailures()).isEqualTo(3);
				assertThat(balancing.ejection().probeTimeout()).isEqualTo(Duration.ofMillis(750));
				assertThat(balancing.retry().maxAttempts()).isEqualTo(5);
				RpcClientSpec defaults = context.getBean(RpcClientFactory.class).spec("other");
				assertThat(defaults.balancing().balancer()).isEqualTo(BalancerKind.ROUND_ROBIN);
			});
	}

	@Test
	void unansweredTimeoutsReachThePoolAndDefaultToThree() {
		this.runner
			.withPropertyValues("rpcrdma.client.orders.address=orders-host:20049",
					"rpcrdma.client.orders.unanswered-timeouts=0")
			.run((context) -> {
				RpcClientFactory factory = context.getBean(RpcClientFactory.class);
				assertThat(factory.spec("orders").pool().unansweredTimeouts()).isZero();
				assertThat(factory.spec("other").pool().unansweredTimeouts()).isEqualTo(3);
			});
		this.runner
			.withPropertyValues("rpcrdma.client.orders.address=orders-host:20049",
					"rpcrdma.client.orders.unanswered-timeouts=-1")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("rpcrdma.client.orders.unanswered-timeouts"));
	}

	@Test
	void callsPerConnectionReachThePoolAndAreValidated() {
		this.runner
			.withPropertyValues("rpcrdma.client.orders.address=orders-host:20049",
					"rpcrdma.client.orders.calls-per-connection=8")
			.run((context) -> {
				RpcClientFactory factory = context.getBean(RpcClientFactory.class);
				assertThat(factory.spec("orders").pool().callsPerConnection()).isEqualTo(8);
				assertThat(factory.spec("other").pool().callsPerConnection())
					.isEqualTo(RpcClientPool.Config.DEFAULT_CALLS_PER_CONNECTION);
			});
		this.runner
			.withPropertyValues("rpcrdma.client.orders.address=orders-host:20049",
					"rpcrdma.client.orders.calls-per-connection=0")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("rpcrdma.client.orders.calls-per-connection"));
	}

	@Test
	void clientWithoutAddressAndNoLocalServerFailsSayingWhichPropertyToSet() {
		this.runner.withPropertyValues("rpcrdma.server.enabled=false").run((context) -> {
			Greeter greeter = context.getBean(RpcClientFactory.class).createClient(Greeter.class, "lonely");
			assertThatIllegalStateException().isThrownBy(() -> greeter.greet("anyone"))
				.withMessageContaining("set rpcrdma.client.lonely.address=host:port");
		});
	}

	@Test
	void clientPropertiesAndCustomizersShapeTheSpec() {
		this.runner
			.withPropertyValues("rpcrdma.client.orders.address=orders-host:20049", "rpcrdma.client.orders.credits=8",
					"rpcrdma.client.orders.max-connections=2", "rpcrdma.client.orders.call-timeout=5s",
					"rpcrdma.ddp.chunk-threshold=16KB")
			.withUserConfiguration(LongerTimeouts.class)
			.run((context) -> {
				RpcClientSpec spec = context.getBean(RpcClientFactory.class).spec("orders");
				assertThat(spec.addresses()).singleElement()
					.satisfies((address) -> assertThat(address.getHostString() + ":" + address.getPort())
						.isEqualTo("orders-host:20049"));
				assertThat(spec.transport().creditsRequested()).isEqualTo(8);
				assertThat(spec.pool().maxConnections()).isEqualTo(2);
				assertThat(spec.options().timeout()).isEqualTo(Duration.ofSeconds(10));
				assertThat(spec.options().ddpThreshold()).isEqualTo(16 << 10);
			});
	}

	@Test
	void aCallToAServerThatIsNotRunningFailsWithinASecondNamingClientServiceMethodAndAddress() throws IOException {
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = socket.getLocalPort();
		}
		this.runner.withPropertyValues("rpcrdma.server.enabled=false", "rpcrdma.client.greeter.address=127.0.0.1:" + port)
			.run((context) -> {
				Greeter greeter = context.getBean(RpcClientFactory.class).createClient(Greeter.class, "greeter");
				long start = System.nanoTime();
				Throwable thrown = catchThrowable(() -> greeter.greet("nobody"));
				Duration took = Duration.ofNanos(System.nanoTime() - start);

				assertThat(took).as("the refused port ends the call, not its timeout").isLessThan(Duration.ofSeconds(1));
				assertThat(thrown).isInstanceOf(PoolExhaustedException.class)
					.hasMessageContaining("client 'greeter'")
					.hasMessageContaining("Greeter.greet")
					.hasMessageContaining("127.0.0.1")
					.hasMessageContaining(":" + port)
					.hasMessageNotContaining("PT")
					.hasMessageContaining("was not sent")
					.hasStackTraceContaining("aCallToAServerThatIsNotRunningFailsWithinASecondNamingClientServiceMethodAndAddress");
				assertThat(thrown.getCause()).as("the refused attempt").isNotNull();
			});
	}

	@Test
	void callsAfterTheFactoryClosedFailSayingThePoolIsClosed() {
		this.runner.withUserConfiguration(GreeterService.class, ImportGreeter.class).run((context) -> {
			Greeter greeter = context.getBean(Greeter.class);
			assertThat(greeter.greet("first")).isEqualTo("Hello, first");
			context.getBean(RpcClientFactory.class).close();
			assertThatExceptionOfType(PoolExhaustedException.class).isThrownBy(() -> greeter.greet("late"))
				.withMessageContaining("closed");
			assertThatIllegalStateException()
				.isThrownBy(() -> context.getBean(RpcClientFactory.class).createClient(Greeter.class, "other"))
				.withMessageContaining("closed");
		});
	}

	@Test
	void importingAnInterfaceThatIsNotAServiceFailsStartUp() {
		this.runner.withUserConfiguration(ImportNotAService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining(
					"@ImportRpcClients lists java.lang.Runnable, which is not an interface annotated @RpcProgram");
		});
	}

	@Test
	void importedClientWithoutAFactoryFailsStartUpSayingWhatIsMissing() {
		new ApplicationContextRunner().withUserConfiguration(ImportGreeter.class, NeedsGreeter.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure())
				.hasStackTraceContaining("client 'default' needs an RpcClientFactory bean, and there is none");
		});
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsOwnFactory() {
		this.runner.withUserConfiguration(OwnFactory.class).run((context) -> {
			assertThat(context).hasSingleBean(RpcClientFactory.class);
			assertThat(context.getBean(RpcClientFactory.class)).isSameAs(context.getBean("myFactory"));
		});
	}

	@Configuration(proxyBeanMethods = false)
	@ImportRpcClients(Greeter.class)
	static class ImportGreeter {

	}

	@Configuration(proxyBeanMethods = false)
	@ImportRpcClients(Runnable.class)
	static class ImportNotAService {

	}

	@Component
	static class GreeterConsumer {

		final Greeter greeter;

		final Greeter named;

		GreeterConsumer(Greeter greeter, @Qualifier(ImportRpcClients.DEFAULT_CLIENT) Greeter named) {
			this.greeter = greeter;
			this.named = named;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@Import(GreeterConsumer.class)
	static class NeedsGreeter {

	}

	@Configuration(proxyBeanMethods = false)
	static class LongerTimeouts {

		@Bean
		RpcClientCustomizer doubleTimeouts() {
			return (spec) -> spec.withOptions(spec.options().withTimeout(spec.options().timeout().multipliedBy(2)));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@Import(GreeterService.class)
	static class OwnFactory {

		@Bean
		RpcClientFactory myFactory(RdmaProvider provider, RegisteredMemoryPool pool, ServiceIntrospector introspector) {
			return new RpcClientFactory(provider, pool, new ServiceClientFactory(introspector),
					(name) -> { throw new IllegalStateException("no clients here"); }, java.util.Optional::empty);
		}

	}

}

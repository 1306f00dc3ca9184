package io.rpcrdma.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.service.ServiceExporter;
import io.rpcrdma.spring.boot.RpcService;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAutoConfigurations;
import io.rpcrdma.spring.boot.RpcServiceBeanExporter;
import io.rpcrdma.spring.boot.RpcServiceExportFailedException;
import io.rpcrdma.spring.boot.sample.Greeter;
import io.rpcrdma.spring.boot.sample.GreeterService;
import io.rpcrdma.spring.boot.sample.SecondGreeterService;
import io.rpcrdma.transport.ConnectionLimits;
import io.rpcrdma.verbs.RdmaProvider;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The export and server auto-configurations: which beans exist under which conditions, the
 * lifecycle, the published port, conflicts and back-off.
 */
class RpcRdmaServerAutoConfigurationTest {

	private final ApplicationContextRunner runner = RpcRdmaAutoConfigurations.runner("server-auto-configuration");

	@Test
	void servesRpcServiceBeansOnAnyFreePortAndPublishesIt() {
		this.runner.withUserConfiguration(GreeterService.class).run((context) -> {
			RpcRdmaServerLifecycle lifecycle = context.getBean(RpcRdmaServerLifecycle.class);
			assertThat(lifecycle.isRunning()).isTrue();
			assertThat(lifecycle.server()).isPresent();
			assertThat(lifecycle.port()).isPositive();
			assertThat(context.getEnvironment().getProperty(RpcRdmaServerLifecycle.PORT_PROPERTY, Integer.class))
				.isEqualTo(lifecycle.port());
			assertThat(lifecycle.exportedServices()).singleElement()
				.satisfies((service) -> assertThat(service.descriptor().serviceInterface()).isEqualTo(Greeter.class));
			assertThat(lifecycle.localAddress()).hasValueSatisfying(
					(address) -> assertThat(address.getHostString()).isEqualTo("server-auto-configuration"));
		});
	}

	@Test
	void stopsListeningWhenTheContextCloses() {
		this.runner.withUserConfiguration(GreeterService.class).run((context) -> {
			RpcRdmaServerLifecycle lifecycle = context.getBean(RpcRdmaServerLifecycle.class);
			context.close();
			assertThat(lifecycle.isRunning()).isFalse();
			assertThat(lifecycle.server()).isEmpty();
			assertThat(lifecycle.port()).isEqualTo(-1);
		});
	}

	@Test
	void addressInUseFailsStartUpNamingTheProperties() {
		ApplicationContextRunner fixedPort = this.runner.withUserConfiguration(GreeterService.class)
			.withPropertyValues("rpcrdma.server.address=address-in-use", "rpcrdma.server.port=20049");
		fixedPort.run((first) -> {
			assertThat(first).hasNotFailed();
			fixedPort.run((second) -> {
				assertThat(second).hasFailed();
				assertThat(second.getStartupFailure())
					.hasStackTraceContaining("The RPC-over-RDMA server could not listen on address-in-use")
					.hasStackTraceContaining("already in use")
					.hasStackTraceContaining("Choose another rpcrdma.server.address or rpcrdma.server.port");
			});
		});
	}

	@Test
	void doesNotListenWithoutServices() {
		this.runner.run((context) -> {
			RpcRdmaServerLifecycle lifecycle = context.getBean(RpcRdmaServerLifecycle.class);
			assertThat(lifecycle.server()).isEmpty();
			assertThat(lifecycle.port()).isEqualTo(-1);
			assertThat(lifecycle.exportedServices()).isEmpty();
		});
	}

	@Test
	void serverCanBeDisabled() {
		this.runner.withUserConfiguration(GreeterService.class)
			.withPropertyValues("rpcrdma.server.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(RpcRdmaServerLifecycle.class)
				.doesNotHaveBean(ServiceExporter.class)
				.doesNotHaveBean(RpcServiceBeanExporter.class));
	}

	@Test
	void rpcServiceOnABeanMethodIsServed() {
		this.runner.withUserConfiguration(BeanMethodService.class).run((context) -> {
			assertThat(context.getBean(RpcRdmaServerLifecycle.class).exportedServices()).singleElement()
				.satisfies((service) -> assertThat(service.implementation()).isInstanceOf(SecondGreeterService.class));
		});
	}

	@Test
	void twoBeansServingOneProgramVersionFailStartUpNamingBoth() {
		this.runner.withUserConfiguration(GreeterService.class, BeanMethodService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(RpcServiceExportFailedException.class)
				.hasMessageContaining("Cannot serve @RpcService bean")
				.hasMessageContaining("already served")
				.hasMessageContaining(GreeterService.class.getName())
				.hasMessageContaining(SecondGreeterService.class.getName());
		});
	}

	@Test
	void rpcServiceWithoutAProgramInterfaceFailsStartUp() {
		this.runner.withUserConfiguration(NotAService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(RpcServiceExportFailedException.class)
				.hasMessageContaining("'notAService'")
				.hasMessageContaining("implements no interface annotated @RpcProgram");
		});
	}

	@Test
	void serverPropertiesAndCustomizersShapeTheServer() {
		this.runner.withUserConfiguration(GreeterService.class, GraceCustomizer.class)
			.withPropertyValues("rpcrdma.server.credits=8", "rpcrdma.server.versions=1",
					"rpcrdma.server.executor.threads=2", "rpcrdma.server.executor.per-connection=1",
					"rpcrdma.server.shutdown-grace-period=7s",
					"rpcrdma.server.credit-budget=64", "rpcrdma.server.max-connections=500",
					"rpcrdma.server.max-connections-per-peer=20")
			.run((context) -> {
				RpcServer.Config config = context.getBean(GraceCustomizer.class).seen;
				assertThat(config.transport().creditsGranted()).isEqualTo(8);
				assertThat(config.transport().supportedVersions().high()).isEqualTo(1);
				assertThat(config.executor().threads()).isEqualTo(2);
				assertThat(config.executor().perConnection()).isEqualTo(1);
				assertThat(config.gracePeriod()).isEqualTo(Duration.ofSeconds(7));
				assertThat(config.effectiveCreditBudget()).isEqualTo(64);
				assertThat(config.connectionLimits()).isEqualTo(new ConnectionLimits(20, 500));
				assertThat(config.bindAddress().getHostString()).isEqualTo("server-auto-configuration");
			});
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsOwnLifecycle() {
		this.runner.withUserConfiguration(GreeterService.class, OwnLifecycle.class).run((context) -> {
			assertThat(context).hasSingleBean(RpcRdmaServerLifecycle.class);
			RpcRdmaServerLifecycle lifecycle = context.getBean(RpcRdmaServerLifecycle.class);
			assertThat(lifecycle).isSameAs(context.getBean("myLifecycle"));
			assertThat(lifecycle.localAddress())
				.hasValueSatisfying((address) -> assertThat(address.getHostString()).isEqualTo("own-lifecycle"));
		});
	}

	@Test
	void stopsBeforeWebServersAndOtherLifecycles() {
		this.runner.run((context) -> assertThat(context.getBean(RpcRdmaServerLifecycle.class).getPhase())
			.isEqualTo(Integer.MAX_VALUE));
	}

	@Configuration(proxyBeanMethods = false)
	static class BeanMethodService {

		@Bean
		@RpcService
		SecondGreeterService secondGreeter() {
			return new SecondGreeterService();
		}

	}

	@RpcService("notAService")
	static class NotAService {

	}

	@Configuration(proxyBeanMethods = false)
	static class GraceCustomizer {

		volatile RpcServer.Config seen;

		@Bean
		RpcServerCustomizer recordingCustomizer() {
			return (config) -> {
				this.seen = config;
				return config;
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	@Import(GreeterService.class)
	static class OwnLifecycle {

		@Bean
		RpcRdmaServerLifecycle myLifecycle(RdmaProvider provider, RegisteredMemoryPool pool, ProgramRegistry registry,
				ServiceExporter exporter) {
			return new RpcRdmaServerLifecycle(
					() -> RpcServer.Config.defaults(provider, pool, InetSocketAddress.createUnresolved("own-lifecycle", 0)),
					registry, exporter, null);
		}

	}

}

package io.rpcrdma.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

import io.rpcrdma.server.RpcServer;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;
import io.rpcrdma.spring.boot.RpcService;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAutoConfigurations;
import io.rpcrdma.spring.boot.client.RpcClientFactory;

/**
 * With {@code spring.threads.virtual.enabled=true} on Java 21 or later, service methods run on
 * virtual threads unless {@code rpcrdma.server.executor.kind} says otherwise; on Java 17 the
 * property changes nothing.
 */
class VirtualThreadsServerTest {

	private static final Method IS_VIRTUAL = isVirtualMethod();

	private final ApplicationContextRunner runner = RpcRdmaAutoConfigurations.runner("virtual-threads")
		.withUserConfiguration(ThreadReporterService.class, SeenConfig.class);

	@Test
	void serviceMethodsRunOnVirtualThreadsWhenTheApplicationAsksForThem() {
		this.runner.withPropertyValues("spring.threads.virtual.enabled=true").run((context) -> {
			RpcServer.Config config = context.getBean(SeenConfig.class).seen;
			ThreadReporter reporter = context.getBean(RpcClientFactory.class).createClient(ThreadReporter.class, "default");
			if (IS_VIRTUAL != null) {
				assertThat(config.executor().kind()).isEqualTo(RpcServer.ExecutorKind.VIRTUAL_THREADS);
				// Everything the pool would admit, running or queued, runs at once.
				assertThat(config.executor().threads()).isEqualTo(4 + 64);
				assertThat(reporter.onVirtualThread()).isTrue();
			}
			else {
				assertThat(config.executor().kind()).isEqualTo(RpcServer.ExecutorKind.BOUNDED_POOL);
				assertThat(reporter.onVirtualThread()).isFalse();
			}
		});
	}

	@Test
	void anExplicitExecutorKindWins() {
		this.runner.withPropertyValues("spring.threads.virtual.enabled=true", "rpcrdma.server.executor.kind=bounded-pool")
			.run((context) -> {
				assertThat(context.getBean(SeenConfig.class).seen.executor().kind())
					.isEqualTo(RpcServer.ExecutorKind.BOUNDED_POOL);
				assertThat(context.getBean(RpcClientFactory.class).createClient(ThreadReporter.class, "default")
					.onVirtualThread()).isFalse();
			});
	}

	@Test
	void withoutThePropertyThePoolStays() {
		this.runner.run((context) -> assertThat(context.getBean(SeenConfig.class).seen.executor().kind())
			.isEqualTo(RpcServer.ExecutorKind.BOUNDED_POOL));
	}

	private static Method isVirtualMethod() {
		try {
			return Thread.class.getMethod("isVirtual");
		}
		catch (NoSuchMethodException ex) {
			return null; // Java 17
		}
	}

	static boolean currentThreadIsVirtual() {
		try {
			return IS_VIRTUAL != null && (boolean) IS_VIRTUAL.invoke(Thread.currentThread());
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** Says what kind of thread runs it. */
	@RpcProgram(number = 0x20000a10, version = 1)
	public interface ThreadReporter {

		@RpcProcedure(1)
		boolean onVirtualThread();

	}

	@Configuration(proxyBeanMethods = false)
	static class ThreadReporterService {

		@Bean
		@RpcService
		ThreadReporter threadReporter() {
			return VirtualThreadsServerTest::currentThreadIsVirtual;
		}

	}

	/** Keeps the server settings the auto-configuration made, changing nothing. */
	@Configuration(proxyBeanMethods = false)
	static class SeenConfig implements RpcServerCustomizer, Ordered {

		volatile RpcServer.Config seen;

		@Override
		public RpcServer.Config customize(RpcServer.Config config) {
			this.seen = config;
			return config;
		}

		@Override
		public int getOrder() {
			return Ordered.LOWEST_PRECEDENCE;
		}

	}

}

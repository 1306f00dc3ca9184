package io.rpcrdma.spring.boot;

import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;
import io.rpcrdma.service.ServiceExporter;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * rpcrdma-spring is the programming model on Spring Framework alone (issue #35): its classpath
 * has no Spring Boot, and a plain application context that declares the exporter serves its
 * {@link RpcService @RpcService} beans, or fails naming the bean that cannot be served.
 */
class ProgrammingModelWithoutBootTest {

	@Test
	void theModuleNeedsNoSpringBoot() {
		assertThatExceptionOfType(ClassNotFoundException.class)
			.isThrownBy(() -> Class.forName("org.springframework.boot.SpringApplication"));
	}

	@Test
	void aPlainContextServesRpcServiceBeans() {
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(Exporting.class,
				EchoService.class)) {
			assertThat(context.getBean(ProgramRegistry.class).versions(0x20000900)).isPresent();
			assertThat(context.getBean(ServiceExporter.class).exported()).singleElement().satisfies(service -> {
				assertThat(service.descriptor().program()).isEqualTo(0x20000900);
				assertThat(service.implementation()).isSameAs(context.getBean(EchoService.class));
			});
		}
	}

	@Test
	void aBeanWithoutAnRpcProgramFailsNamingTheBean() {
		Throwable failure = catchThrowable(() -> new AnnotationConfigApplicationContext(Exporting.class, NoProgram.class).close());
		RpcServiceExportFailedException cause = findCause(failure);
		assertThat(cause.getBeanName()).isEqualTo("programmingModelWithoutBootTest.NoProgram");
		assertThat(cause).hasMessageContaining("Cannot serve @RpcService bean 'programmingModelWithoutBootTest.NoProgram'");
	}

	private static RpcServiceExportFailedException findCause(Throwable failure) {
		for (Throwable t = failure; t != null; t = t.getCause()) {
			if (t instanceof RpcServiceExportFailedException export) {
				return export;
			}
		}
		throw new AssertionError("no RpcServiceExportFailedException in " + failure, failure);
	}

	@RpcProgram(number = 0x20000900, version = 1, name = "Echo")
	public interface Echo {

		@RpcProcedure(1)
		String echo(String text);

	}

	@RpcService
	static class EchoService implements Echo {

		@Override
		public String echo(String text) {
			return text;
		}

	}

	@RpcService
	static class NoProgram {

	}

	@Configuration(proxyBeanMethods = false)
	static class Exporting {

		@Bean
		ProgramRegistry programRegistry() {
			return new ProgramRegistry();
		}

		@Bean
		ServiceExporter serviceExporter(ProgramRegistry registry) {
			return new ServiceExporter(new ServiceIntrospector(CodecRegistry.standard()), registry);
		}

		@Bean
		RpcServiceBeanExporter rpcServiceBeanExporter(ListableBeanFactory beans, ServiceExporter exporter) {
			return new RpcServiceBeanExporter(beans, exporter);
		}

	}

}

package io.rpcrdma.spring.boot.autoconfigure.export;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.service.ServiceExporter;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.spring.boot.sample.GreeterService;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;

/**
 * The exporter and its failure moved to rpcrdma-spring (issue #35); code written against
 * their old names in this package still compiles and works.
 */
@SuppressWarnings("removal")
class DeprecatedExportNamesTest {

	@Test
	void theExporterAtItsOldNameStillServesRpcServiceBeans() {
		DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
		GreeterService greeter = new GreeterService();
		beans.registerSingleton("greeter", greeter);
		ServiceExporter exporter = new ServiceExporter(new ServiceIntrospector(CodecRegistry.standard()),
				new ProgramRegistry());

		new RpcServiceBeanExporter(beans, exporter).afterSingletonsInstantiated();

		assertThat(exporter.exported()).singleElement()
			.satisfies((service) -> assertThat(service.implementation()).isSameAs(greeter));
	}

	@Test
	void theFailureAtItsOldNameIsTheNewFailure() {
		RpcServiceExportFailedException failure = new RpcServiceExportFailedException("greeter", "cannot serve", null);

		assertThat(failure).isInstanceOf(io.rpcrdma.spring.boot.RpcServiceExportFailedException.class);
		assertThat(failure.getBeanName()).isEqualTo("greeter");
	}

}

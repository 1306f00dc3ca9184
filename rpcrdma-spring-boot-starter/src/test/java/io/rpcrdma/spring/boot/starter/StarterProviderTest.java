package io.rpcrdma.spring.boot.starter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import io.rpcrdma.verbs.ProviderUnavailableException;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * An application whose only rpcrdma dependency is the starter, as this module's test class path
 * is: it starts on the software iWARP provider the starter brings, and asking for disni, which
 * it does not bring, names the artifact to add.
 */
class StarterProviderTest {

	@Test
	void theStarterAloneRunsOnSiw() {
		try (ConfigurableApplicationContext context = application().run("--rpcrdma.server.address=127.0.0.1",
				"--rpcrdma.server.port=0")) {
			assertThat(context.getBean(RdmaProvider.class).name()).isEqualTo("siw");
		}
	}

	@Test
	void disniWithoutItsModuleNamesTheArtifact() {
		assertThatExceptionOfType(Exception.class)
			.isThrownBy(() -> application().run("--rpcrdma.provider=disni", "--rpcrdma.server.enabled=false").close())
			.havingRootCause()
			.isInstanceOf(ProviderUnavailableException.class)
			.withMessageContaining("add io.rpcrdma:rpcrdma-disni to the application's dependencies");
	}

	private static SpringApplicationBuilder application() {
		return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE).logStartupInfo(false);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

}

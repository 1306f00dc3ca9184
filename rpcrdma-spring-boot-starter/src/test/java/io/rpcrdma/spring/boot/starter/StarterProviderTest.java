package io.rpcrdma.spring.boot.starter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import io.rpcrdma.verbs.RdmaProvider;

/**
 * An application whose only rpcrdma dependency is the starter, as this module's test class path
 * is: it starts on the software iWARP provider the starter brings, and asking for disni, whose
 * module the starter does not bring, fails with a report naming the artifact to add.
 */
@ExtendWith(OutputCaptureExtension.class)
class StarterProviderTest {

	@Test
	void theStarterAloneRunsOnSiw() {
		try (ConfigurableApplicationContext context = application().run("--rpcrdma.server.address=127.0.0.1",
				"--rpcrdma.server.port=0")) {
			assertThat(context.getBean(RdmaProvider.class).name()).isEqualTo("siw");
		}
	}

	@Test
	void disniWithoutItsModuleIsReportedWithTheArtifactToAdd(CapturedOutput output) {
		assertThatException()
			.isThrownBy(() -> application().run("--rpcrdma.provider=disni", "--rpcrdma.server.enabled=false"));
		assertThat(output.getAll()).contains("APPLICATION FAILED TO START")
			.contains("rpcrdma.provider is 'disni', which cannot run here: 1 requirement is missing: "
					+ "the disni provider's module io.rpcrdma:rpcrdma-disni on the class path.")
			.contains("available here: loopback, siw")
			.contains("- add the dependency io.rpcrdma:rpcrdma-disni (its version comes from rpcrdma-bom)");
	}

	private static SpringApplicationBuilder application() {
		return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.properties("spring.main.banner-mode=off");
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

}

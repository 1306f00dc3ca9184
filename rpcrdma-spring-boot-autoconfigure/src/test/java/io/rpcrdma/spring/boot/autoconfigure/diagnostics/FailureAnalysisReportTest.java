package io.rpcrdma.spring.boot.autoconfigure.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import io.rpcrdma.spring.boot.autoconfigure.provider.RpcRdmaProviderAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.service.RpcRdmaServiceAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.export.RpcRdmaServiceExportAutoConfiguration;
import io.rpcrdma.spring.boot.sample.GreeterService;

/**
 * What a user sees when an application asks for the DiSNI provider on a machine without RDMA:
 * Spring Boot's failure report, short, with no stack trace.
 */
@ExtendWith(OutputCaptureExtension.class)
class FailureAnalysisReportTest {

	private static final String STARS = "***************************";

	@Test
	void askingForDisniWithoutRdmaPrintsABootFailureAnalysisOfAtMostFifteenLines(CapturedOutput output) {
		assertThatException().isThrownBy(() -> new SpringApplicationBuilder(Application.class)
			.web(WebApplicationType.NONE)
			.properties("rpcrdma.provider=disni", "rpcrdma.server.port=0", "spring.main.banner-mode=off")
			.run());
		String printed = output.getAll();
		assertThat(printed).contains("APPLICATION FAILED TO START");
		List<String> lines = printed.lines().toList();
		int first = lines.indexOf(STARS);
		assertThat(first).as("the report's frame in:%n%s", printed).isNotNegative();
		List<String> report = lines.subList(first, lines.size()).stream()
			.dropWhile((line) -> false)
			.toList();
		int end = report.size();
		while (end > 0 && report.get(end - 1).isBlank()) {
			end--;
		}
		report = report.subList(0, end);
		assertThat(report).as("the report:%n%s", String.join("\n", report)).hasSizeLessThanOrEqualTo(15);
		assertThat(report).contains("Description:", "Action:");
		assertThat(String.join("\n", report)).contains("rpcrdma.provider is 'disni', which cannot run here")
			.contains("available here: ");
		assertThat(printed).doesNotContain("\tat ").doesNotContain("Caused by:");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ RpcRdmaProviderAutoConfiguration.class, RpcRdmaServiceAutoConfiguration.class,
			RpcRdmaServiceExportAutoConfiguration.class, RpcRdmaServerAutoConfiguration.class })
	@Import(GreeterService.class)
	static class Application {

	}

}

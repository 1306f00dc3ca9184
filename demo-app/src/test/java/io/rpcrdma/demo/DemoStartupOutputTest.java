package io.rpcrdma.demo;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo starts as the README runs it without a warning its user cannot act on (issue #38):
 * Spring Cloud LoadBalancer's "default cache" warning came from a dependency the demo never
 * used.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class DemoStartupOutputTest {

	@Test
	void startsWithoutWarnings(CapturedOutput output) {
		assertThat(Arrays.stream(output.getOut().split("\n")).filter((line) -> line.contains(" WARN ")))
			.as("warnings in the start-up output")
			.isEmpty();
	}

}

package io.rpcrdma.benchmarks.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The README's one benchmark command names the main class and the jar this module builds.
 */
class ReadmeBenchmarkCommandTest {

	@Test
	void readmeRunsTheComparisonFromTheShadedJar() throws Exception {
		List<String> readme = Files.readAllLines(Path.of("..", "README.md"));
		int marker = readme.indexOf("<!-- benchmark-command -->");
		assertThat(marker).as("the <!-- benchmark-command --> marker in README.md").isNotNegative();

		String command = readme.get(marker + 2);

		assertThat(command).startsWith("./mvnw -q -pl rpcrdma-benchmarks -am package")
			.contains("rpcrdma-benchmarks/target/rpcrdma-benchmarks.jar")
			.endsWith(Compare.class.getName());
		assertThat(Files.readString(Path.of("pom.xml"))).contains("<outputFile>${project.build.directory}/rpcrdma-benchmarks.jar</outputFile>");
	}

}

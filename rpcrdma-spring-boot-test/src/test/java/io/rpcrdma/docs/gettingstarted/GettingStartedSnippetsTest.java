package io.rpcrdma.docs.gettingstarted;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/getting-started.md shows these sources as they are, imports included, below their
 * package line: the build compiles and runs what the guide tells users to write.
 */
class GettingStartedSnippetsTest {

	private static final Path GUIDE = Path.of("..", "docs", "getting-started.md");

	private static final Path SOURCES = Path.of("src", "test", "java", "io", "rpcrdma", "docs", "gettingstarted");

	@ParameterizedTest
	@ValueSource(strings = { "Greeter.java", "GreeterService.java", "ClientApplication.java", "GreeterServiceTest.java" })
	void theGuideShowsTheSource(String file) throws IOException {
		String source = Files.readString(SOURCES.resolve(file));
		String shown = source.replaceFirst("^package [^;]+;\n\n", "");
		assertThat(Files.readString(GUIDE)).as("a java block of %s equal to %s", GUIDE, file)
			.contains("```java\n" + shown + "```\n");
	}

}

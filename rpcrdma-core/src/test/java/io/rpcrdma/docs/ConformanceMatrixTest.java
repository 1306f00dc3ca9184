package io.rpcrdma.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Keeps docs/protocol.md honest: every test it cites as proof of a requirement exists, so a
 * renamed or deleted test cannot leave a row claiming a proof that is gone.
 */
class ConformanceMatrixTest {

	private static final Path MATRIX = Path.of("..", "docs", "protocol.md");

	private static final Path TEST_SOURCES = Path.of("src", "test", "java");

	private static final Path KIT_SOURCES = Path.of("..", "rpcrdma-verbs-tck", "src", "main", "java");

	private static final Pattern CITATION = Pattern.compile("\\b([A-Z][A-Za-z0-9]*(?:Test|Tests|Properties|Kit))#([a-zA-Z0-9_]+)");

	private static Stream<Path> javaFiles(Path directory) {
		try (Stream<Path> files = Files.walk(directory)) {
			return files.filter((file) -> file.toString().endsWith(".java")).toList().stream();
		}
		catch (IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	@Test
	void everyCitedTestMethodExists() throws IOException {
		Map<String, List<Path>> sourcesByClass;
		// Every module's tests: the Spring modules prove rows too; and the provider conformance
		// kit, a test library whose tests live in its main sources.
		try (Stream<Path> modules = Files.list(Path.of(".."))) {
			sourcesByClass = Stream.concat(modules.map((module) -> module.resolve(TEST_SOURCES)), Stream.of(KIT_SOURCES))
				.filter(Files::isDirectory)
				.flatMap(ConformanceMatrixTest::javaFiles)
				.collect(Collectors.groupingBy((file) -> file.getFileName().toString().replace(".java", "")));
		}
		List<String> missing = new ArrayList<>();
		int citations = 0;
		Matcher matcher = CITATION.matcher(Files.readString(MATRIX));
		while (matcher.find()) {
			citations++;
			String type = matcher.group(1);
			String method = matcher.group(2);
			List<Path> sources = sourcesByClass.getOrDefault(type, List.of());
			boolean found = false;
			for (Path source : sources) {
				if (Pattern.compile("\\b" + method + "\\s*\\(").matcher(Files.readString(source)).find()) {
					found = true;
				}
			}
			if (!found) {
				missing.add(type + "#" + method);
			}
		}
		assertThat(citations).as("citations found in %s", MATRIX).isGreaterThan(100);
		assertThat(missing).as("tests cited in docs/protocol.md that do not exist").isEmpty();
	}

}

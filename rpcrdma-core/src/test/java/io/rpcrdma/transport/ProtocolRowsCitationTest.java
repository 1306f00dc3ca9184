package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * Keeps docs/protocol-rows-transport.md honest: every test it cites exists in this package.
 */
class ProtocolRowsCitationTest {

	private static final Path ROWS = Path.of("..", "docs", "protocol-rows-transport.md");

	private static final Path SOURCES = Path.of("src", "test", "java", "io", "rpcrdma", "transport");

	private static final Pattern CITATION = Pattern.compile("\\b([A-Z][A-Za-z0-9]*(?:Test|Tests))#([a-zA-Z0-9_]+)");

	@Test
	void everyCitedTestMethodExists() throws IOException {
		List<String> missing = new ArrayList<>();
		int citations = 0;
		Matcher matcher = CITATION.matcher(Files.readString(ROWS));
		while (matcher.find()) {
			citations++;
			Path source = SOURCES.resolve(matcher.group(1) + ".java");
			boolean found = Files.exists(source) && Pattern.compile("\\bvoid " + matcher.group(2) + "\\s*\\(")
				.matcher(Files.readString(source))
				.find();
			if (!found) {
				missing.add(matcher.group(1) + "#" + matcher.group(2));
			}
		}
		assertThat(citations).isGreaterThan(50);
		assertThat(missing).as("tests cited in docs/protocol-rows-transport.md that do not exist").isEmpty();
	}

}

package io.rpcrdma.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Holds issue #35's bound on the classes of the transport, client and server packages: none
 * over {@value #MOST_LINES} lines, so that a class that takes on another job shows in the build
 * and is split along the RFC's lines (marshalling, replies, chunks, credits) rather than grown.
 */
class ClassSizeTest {

	static final int MOST_LINES = 700;

	private static final Path SOURCES = Path.of("src", "main", "java", "io", "rpcrdma");

	@Test
	void noTransportClientOrServerClassIsOverSevenHundredLines() throws IOException {
		List<String> over;
		try (Stream<Path> files = Stream.of("transport", "client", "server").map(SOURCES::resolve)
			.flatMap(ClassSizeTest::javaFiles)) {
			over = files.filter((file) -> lines(file) > MOST_LINES)
				.map((file) -> SOURCES.relativize(file) + " (" + lines(file) + " lines)")
				.toList();
		}
		assertThat(over).as("classes over %d lines", MOST_LINES).isEmpty();
	}

	private static Stream<Path> javaFiles(Path directory) {
		assertThat(directory).isDirectory();
		try {
			return Files.walk(directory).filter((file) -> file.toString().endsWith(".java")).toList().stream();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static long lines(Path file) {
		try (Stream<String> lines = Files.lines(file)) {
			return lines.count();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}

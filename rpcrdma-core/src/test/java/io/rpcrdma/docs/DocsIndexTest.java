package io.rpcrdma.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Keeps docs/index.md true: it lists every page of docs/ once, and no link of the docs or the
 * README points at a file that is not there.
 */
class DocsIndexTest {

	private static final Path DOCS = Path.of("..", "docs");

	/** A Markdown link's target: {@code [text](target)}. */
	private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

	/** A row of the index's table that names a page: {@code | [page.md](page.md) | ... |}. */
	private static final Pattern ROW = Pattern.compile("^\\|\\s*\\[[^]]+\\]\\(([^)#]+\\.md)\\)", Pattern.MULTILINE);

	private static final Pattern FENCED = Pattern.compile("```.*?```", Pattern.DOTALL);

	@Test
	void theIndexListsEveryPageOnce() throws IOException {
		Map<String, Integer> rows = new TreeMap<>();
		Matcher row = ROW.matcher(Files.readString(DOCS.resolve("index.md")));
		while (row.find()) {
			rows.merge(row.group(1), 1, Integer::sum);
		}
		List<String> pages;
		try (Stream<Path> files = Files.list(DOCS)) {
			pages = files.map((file) -> file.getFileName().toString())
				.filter((name) -> name.endsWith(".md") && !name.equals("index.md"))
				.sorted()
				.toList();
		}
		assertThat(pages).as("pages under %s", DOCS.toAbsolutePath()).isNotEmpty();
		assertThat(rows.keySet()).as("the pages index.md lists").containsExactlyElementsOf(pages);
		assertThat(rows).as("how often index.md lists each page").allSatisfy((page, times) -> assertThat(times).isOne());
	}

	@Test
	void everyLinkToAFileResolves() throws IOException {
		List<Path> sources = new ArrayList<>();
		try (Stream<Path> files = Files.list(DOCS)) {
			files.filter((file) -> file.toString().endsWith(".md")).sorted().forEach(sources::add);
		}
		sources.add(Path.of("..", "README.md"));
		List<String> broken = new ArrayList<>();
		for (Path source : sources) {
			// Code blocks show Markdown and shell, not links.
			String text = FENCED.matcher(Files.readString(source)).replaceAll("");
			Matcher link = LINK.matcher(text);
			while (link.find()) {
				String target = link.group(1);
				if (target.startsWith("#") || target.matches("^[a-z][a-z0-9+.-]*:.*")) {
					continue;
				}
				String file = target.replaceFirst("#.*$", "");
				if (!Files.exists(source.resolveSibling(file))) {
					broken.add(source.getFileName() + " -> " + target);
				}
			}
		}
		assertThat(broken).as("links to files that are not there").isEmpty();
	}

}

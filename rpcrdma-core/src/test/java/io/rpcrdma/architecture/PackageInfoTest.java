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
 * Every package of every module says in its {@code package-info.java} what its job is and which
 * layer it belongs to (docs/architecture.md points readers there).
 */
class PackageInfoTest {

	@Test
	void everyPackageOfEveryModuleHasAPackageInfo() throws IOException {
		List<Path> packages;
		try (Stream<Path> modules = Files.list(Path.of(".."))) {
			packages = modules.map((module) -> module.resolve(Path.of("src", "main", "java")))
				.filter(Files::isDirectory)
				.flatMap(PackageInfoTest::packagesUnder)
				.toList();
		}
		assertThat(packages).hasSizeGreaterThan(50);
		assertThat(packages).as("packages without a package-info.java")
			.filteredOn((dir) -> !Files.isRegularFile(dir.resolve("package-info.java")))
			.isEmpty();
	}

	@Test
	void everyPackageInfoSaysSomething() throws IOException {
		try (Stream<Path> modules = Files.list(Path.of(".."))) {
			List<Path> infos = modules.map((module) -> module.resolve(Path.of("src", "main", "java")))
				.filter(Files::isDirectory)
				.flatMap(PackageInfoTest::packagesUnder)
				.map((dir) -> dir.resolve("package-info.java"))
				.filter(Files::isRegularFile)
				.toList();
			assertThat(infos).as("package-info.java files without a Javadoc comment before the package")
				.filteredOn((info) -> !documented(info))
				.isEmpty();
		}
	}

	private static boolean documented(Path info) {
		try {
			String text = Files.readString(info);
			int doc = text.indexOf("/**");
			int pkg = text.indexOf("package ");
			return doc >= 0 && pkg > doc && text.substring(doc + 3, text.indexOf("*/", doc)).strip().length() > 20;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The directories under a source root that hold a class. */
	private static Stream<Path> packagesUnder(Path root) {
		try (Stream<Path> files = Files.walk(root)) {
			return files.filter((file) -> file.toString().endsWith(".java"))
				.filter((file) -> !file.getFileName().toString().equals("package-info.java"))
				.map(Path::getParent)
				.distinct()
				.sorted()
				.toList()
				.stream();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}

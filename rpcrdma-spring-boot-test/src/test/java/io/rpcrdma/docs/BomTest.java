package io.rpcrdma.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * {@code rpcrdma-bom} manages every artifact an application adds, at the build's own version,
 * and getting-started.md adds them without versions (issue #38, finding 5). A module added to
 * the build without a BOM entry, or a BOM left at an old version, fails here.
 */
class BomTest {

	private static final Path ROOT = Path.of("..");

	/** Modules that are not artifacts an application adds. */
	private static final Set<String> NOT_FOR_APPLICATIONS = Set.of("rpcrdma-bom", "demo-app", "rpcrdma-benchmarks");

	private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

	private static final Pattern DEPENDENCY = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL);

	@Test
	void theBomManagesEveryArtifactOfTheBuildAtItsVersion() throws IOException {
		String root = Files.readString(ROOT.resolve("pom.xml"));
		String bom = Files.readString(ROOT.resolve("rpcrdma-bom").resolve("pom.xml"));
		assertThat(ownVersion(bom)).as("rpcrdma-bom's version").isEqualTo(ownVersion(root));

		List<String> managed = new ArrayList<>();
		Matcher dependency = DEPENDENCY.matcher(bom);
		while (dependency.find()) {
			String block = dependency.group(1);
			assertThat(block).as("a managed artifact's version").contains("<version>${project.version}</version>");
			managed.add(element(block, "artifactId"));
		}
		Matcher module = MODULE.matcher(root);
		List<String> artifacts = new ArrayList<>();
		while (module.find()) {
			if (!NOT_FOR_APPLICATIONS.contains(module.group(1))) {
				artifacts.add(ownArtifactId(Files.readString(ROOT.resolve(module.group(1)).resolve("pom.xml"))));
			}
		}
		assertThat(artifacts).isNotEmpty();
		assertThat(managed).containsExactlyInAnyOrderElementsOf(artifacts);
	}

	@Test
	void gettingStartedImportsTheBomAndAddsRpcrdmaWithoutVersions() throws IOException {
		String guide = Files.readString(ROOT.resolve("docs").resolve("getting-started.md"));
		Matcher dependency = DEPENDENCY.matcher(guide);
		List<String> added = new ArrayList<>();
		boolean bomImported = false;
		while (dependency.find()) {
			String block = dependency.group(1);
			String artifact = element(block, "artifactId");
			if (!artifact.startsWith("rpcrdma")) {
				continue;
			}
			if (artifact.equals("rpcrdma-bom")) {
				bomImported = block.contains("<scope>import</scope>");
				assertThat(element(block, "version")).isEqualTo(ownVersion(Files.readString(ROOT.resolve("pom.xml"))));
			}
			else {
				added.add(artifact);
				assertThat(block).as("%s in getting-started.md", artifact).doesNotContain("<version>");
			}
		}
		assertThat(bomImported).as("getting-started.md imports rpcrdma-bom").isTrue();
		assertThat(added).contains("rpcrdma-spring-boot-starter", "rpcrdma-spring-boot-test");
	}

	/** The project's own version: the first {@code <version>} after its own artifactId. */
	private static String ownVersion(String pom) {
		String afterParent = pom.replaceAll("(?s)<parent>.*?</parent>", "");
		return element(afterParent.substring(afterParent.indexOf("<artifactId>")), "version");
	}

	private static String ownArtifactId(String pom) {
		return element(pom.replaceAll("(?s)<parent>.*?</parent>", ""), "artifactId");
	}

	private static String element(String xml, String name) {
		Matcher matcher = Pattern.compile("<" + name + ">([^<]+)</" + name + ">").matcher(xml);
		assertThat(matcher.find()).as("<%s> in %s", name, xml.strip().lines().findFirst().orElse("")).isTrue();
		return matcher.group(1).trim();
	}

}

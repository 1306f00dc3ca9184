package io.rpcrdma.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Holds the layering of docs/architecture.md (issue #35): nothing above the provider SPI names a
 * provider's package, the service layer does not reach into verbs, client and server do not name
 * each other, no layer names one above it, the two connection roles do not call each other, and
 * every module shows its project dependencies as imports. A new breach fails the test, and so
 * does an entry of the allow-list that no longer happens, so the list can only shrink.
 */
class LayeringTest {

	private static final Path CORE_SOURCES = Path.of("src", "main", "java");

	/**
	 * The breaches known when the rules were written, each to be removed by moving the code, not
	 * by growing this list.
	 */
	private static final List<String> KNOWN = List.of(
	// Empty: the breaches found when the rules were written (issue #35) are gone. An entry
	// reads "rule: from -> to", as the failure prints it.
	);

	/**
	 * The modules of the RPC stack, bottom up: the provider SPI (with the loopback provider), the
	 * two provider modules and the RPC library. Maven's module dependencies already keep the
	 * providers from naming the RPC stack (they do not depend on rpcrdma-core); the rules below
	 * hold the layers inside the modules.
	 */
	private static final List<String> STACK = List.of("rpcrdma-verbs", "rpcrdma-siw", "rpcrdma-disni", "rpcrdma-core");

	@Test
	void theRpcStackKeepsItsLayers() {
		List<JavaSource> stack = new ArrayList<>();
		for (String module : STACK) {
			List<JavaSource> sources = JavaSource.under(Path.of("..", module).resolve(CORE_SOURCES));
			assertThat(sources).as("%s's sources", module).hasSizeGreaterThan(20);
			stack.addAll(sources);
		}
		assertAgainstAllowList(LayerRules.layering(stack), Set.of(LayerRules.PROVIDER_HELPERS,
				LayerRules.SERVICE_VERBS, LayerRules.CLIENT_SERVER, LayerRules.SERVER_CLIENT, LayerRules.UPWARD,
				LayerRules.SIDEWAYS, LayerRules.SPRING_IN_CORE));
	}

	@Test
	void everyModuleImportsWhatItNames() throws IOException {
		List<JavaSource> all = new ArrayList<>();
		// Every module of the build: the Spring modules and the benchmarks hide dependencies too.
		try (Stream<Path> modules = Files.list(Path.of(".."))) {
			for (Path module : modules.sorted().toList()) {
				all.addAll(JavaSource.under(module.resolve(CORE_SOURCES)));
			}
		}
		assertThat(all).hasSizeGreaterThan(500);
		assertAgainstAllowList(LayerRules.qualifiedNames(all), Set.of(LayerRules.QUALIFIED_NAME));
	}

	private static void assertAgainstAllowList(List<Violation> found, Set<String> rules) {
		Set<Violation> allowed = new LinkedHashSet<>();
		for (String entry : KNOWN) {
			Violation known = Violation.parse(entry);
			if (rules.contains(known.rule())) {
				allowed.add(known);
			}
		}
		Set<Violation> actual = new LinkedHashSet<>(found);
		List<Violation> added = actual.stream().filter((v) -> !allowed.contains(v)).toList();
		List<Violation> stale = allowed.stream().filter((v) -> !actual.contains(v)).toList();
		assertThat(added).as("new layering breaches (move the code; see docs/architecture.md)").isEmpty();
		assertThat(stale).as("allow-list entries that no longer happen (delete them from LayeringTest.KNOWN)")
			.isEmpty();
	}

}

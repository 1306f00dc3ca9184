package io.rpcrdma.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import org.junit.jupiter.api.Test;

/**
 * rpcrdma-verbs alone, as an application has it that depends on rpcrdma-core without a provider
 * module: the loopback provider runs, and asking for siw or disni says which artifact to add
 * rather than calling the name unknown.
 */
class ProviderModulesTest {

	@Test
	void loopbackIsInTheSpiModule() throws Exception {
		try (RdmaProvider provider = RdmaProviders.open("loopback")) {
			assertThat(provider.name()).isEqualTo("loopback");
		}
	}

	@Test
	void aProviderModuleMissingFromTheClassPathIsNamedByItsArtifact() {
		assertThatExceptionOfType(ProviderUnavailableException.class).isThrownBy(() -> RdmaProviders.open("disni"))
			.withMessage("RDMA provider 'disni' is not on the class path: add io.rpcrdma:rpcrdma-disni to the"
					+ " application's dependencies, or choose an available provider: loopback");
		assertThatExceptionOfType(ProviderUnavailableException.class).isThrownBy(() -> RdmaProviders.open("SIW"))
			.withMessageContaining("add io.rpcrdma:rpcrdma-siw to the application's dependencies")
			.satisfies((ex) -> {
				assertThat(ex.provider()).contains("siw");
				assertThat(ex.missingRequirements()).singleElement()
					.satisfies((missing) -> assertThat(missing.remedy())
						.isEqualTo("add the dependency io.rpcrdma:rpcrdma-siw (its version comes from rpcrdma-bom)"));
			});
		assertThat(RdmaProviders.describe()).isEqualTo("loopback: available; "
				+ "siw: not installed (io.rpcrdma:rpcrdma-siw is not on the class path); "
				+ "disni: not installed (io.rpcrdma:rpcrdma-disni is not on the class path)");
	}

	@Test
	void anUnknownNameIsStillUnknown() {
		assertThatExceptionOfType(ProviderUnavailableException.class).isThrownBy(() -> RdmaProviders.open("ibverbs"))
			.withMessageStartingWith("Unknown RDMA provider 'ibverbs'; known providers are [loopback, siw, disni, auto]");
	}

}

package io.rpcrdma.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.Comparator;

import org.junit.jupiter.api.Test;

class RdmaProvidersTest {

	@Test
	void opensTheLoopbackProviderByNameInAnyCase() {
		try (RdmaProvider provider = RdmaProviders.open(" Loopback ")) {
			assertThat(provider.name()).isEqualTo("loopback");
			assertThat(provider.isClosed()).isFalse();
		}
	}

	@Test
	void anUnknownNameListsTheKnownNames() {
		assertThatExceptionOfType(ProviderUnavailableException.class).isThrownBy(() -> RdmaProviders.open("infiniband"))
			.withMessageContaining("'infiniband'")
			.withMessageContaining("loopback")
			.withMessageContaining("siw")
			.withMessageContaining("disni")
			.withMessageContaining("auto");
		assertThatExceptionOfType(ProviderUnavailableException.class).isThrownBy(() -> RdmaProviders.open(" "))
			.withMessageContaining("loopback");
	}

	@Test
	void autoPicksTheMostCapableAvailableProvider() {
		String expected = RdmaProviders.factories()
			.values()
			.stream()
			.filter(RdmaProviderFactory::isAvailable)
			.max(Comparator.comparingInt(RdmaProviderFactory::autoPriority))
			.orElseThrow()
			.name();
		assertThat(RdmaProviders.resolve("auto").name()).isEqualTo(expected);
		try (RdmaProvider provider = RdmaProviders.open("auto")) {
			assertThat(provider.name()).isEqualTo(expected);
		}
	}

	@Test
	void theDescriptionSaysWhichProvidersAreAvailableAndWhyOthersAreNot() {
		String description = RdmaProviders.describe();
		assertThat(description).contains("loopback: available");
		for (String name : RdmaProviders.WELL_KNOWN_NAMES) {
			assertThat(description).contains(name + ":");
		}
		assertThat(RdmaProviders.knownNames()).contains("loopback", "siw", "disni", "auto");
	}

	@Test
	void valueTypesValidateTheirInput() {
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> new RnrPolicy(8, java.time.Duration.ofMillis(1)));
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> new RnrPolicy(1, java.time.Duration.ZERO));
		assertThat(new RnrPolicy(7, java.time.Duration.ofMillis(1)).isInfinite()).isTrue();
		assertThat(PrivateData.of((byte) 1, (byte) 2)).isEqualTo(new PrivateData(new byte[] { 1, 2 }));
		byte[] bytes = { 1 };
		PrivateData data = new PrivateData(bytes);
		bytes[0] = 2;
		assertThat(data.bytes()).containsExactly(1);
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new SendWorkRequest(1, SendOpcode.RDMA_READ, java.util.List.of(), null, 0, true))
			.withMessageContaining("RemoteAddress");
	}

}

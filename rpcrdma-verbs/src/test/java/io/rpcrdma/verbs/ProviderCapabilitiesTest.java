package io.rpcrdma.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProviderCapabilitiesTest {

	@Test
	void providersThatSayNothingHaveEveryCapability() {
		try (RdmaProvider loopback = RdmaProviders.open("loopback")) {
			assertThat(loopback.capabilities()).isEqualTo(ProviderCapabilities.FULL);
			assertThat(loopback.capabilities().privateDataExchange()).isTrue();
		}
	}

	@Test
	void privateDataExchangeNeedsBothDirections() {
		assertThat(new ProviderCapabilities(true, false, true, true, true, true, true).privateDataExchange()).isFalse();
		assertThat(new ProviderCapabilities(false, true, true, true, true, true, true).privateDataExchange()).isFalse();
		assertThat(new ProviderCapabilities(true, true, false, false, false, false, false).privateDataExchange()).isTrue();
	}

}

package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.VersionRange;

class TransportConfigTest {

	@Test
	void defaultsFollowTheSpecifications() {
		TransportConfig config = TransportConfig.defaults();
		assertThat(config.inlineThreshold(1)).isEqualTo(1024);
		assertThat(config.inlineThreshold(2)).isEqualTo(4096);
		assertThat(config.preferredVersion()).isEqualTo(2);
		assertThat(config.supportedVersions()).isEqualTo(VersionRange.VERSIONS_1_AND_2);
		assertThat(config.receiveBufferSize()).isEqualTo(4096);
		assertThat(config.receiveCount()).isGreaterThan(config.creditsGranted());
	}

	@Test
	void aVersion1OnlyConfigurationReceivesAtTheVersion1Threshold() {
		assertThat(TransportConfig.defaults().withVersions(VersionRange.VERSION_1_ONLY, 1).receiveBufferSize())
			.isEqualTo(1024);
	}

	@Test
	void invalidSettingsAreRefusedWithTheReason() {
		TransportConfig config = TransportConfig.defaults();
		assertThatIllegalArgumentException().isThrownBy(() -> config.withVersions(VersionRange.VERSION_1_ONLY, 2))
			.withMessageContaining("preferred");
		assertThatIllegalArgumentException().isThrownBy(() -> config.withVersions(new VersionRange(1, 3), 1))
			.withMessageContaining("versions 1 and 2");
		assertThatIllegalArgumentException().isThrownBy(() -> config.withInlineThresholds(512, 4096))
			.withMessageContaining("1024");
		assertThatIllegalArgumentException().isThrownBy(() -> config.withCredits(0, 8, 20))
			.withMessageContaining("creditsRequested");
		assertThatIllegalArgumentException().isThrownBy(() -> config.withCredits(8, 0, 20))
			.withMessageContaining("never zero");
		assertThatIllegalArgumentException().isThrownBy(() -> config.withCredits(8, 16, 16))
			.withMessageContaining("receiveCount");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> config.withTimeouts(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(1)));
	}

}

package io.rpcrdma.verbs.disni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RnrPolicy;

class CmRetriesTest {

	@Test
	void aRequesterAsksForXprtrdmasCountsByDefault() {
		// xprtrdma's rpcrdma_ep_create: retry_count 6, rnr_retry_count 0.
		assertThat(CmRetries.requester(DisniSettings.defaults())).isEqualTo(new CmRetries(6, 0));
	}

	@Test
	void aListenerRetriesReceiverNotReadySoThatAPipeliningRequesterWaitsForItsFirstGrantsReceives() {
		assertThat(CmRetries.responder(DisniSettings.defaults(), RnrPolicy.DEFAULT)).isEqualTo(new CmRetries(6, 6));
		assertThat(CmRetries.responder(DisniSettings.defaults(), new RnrPolicy(RnrPolicy.INFINITE, Duration.ofMillis(1))))
			.isEqualTo(new CmRetries(6, 7));
	}

	@Test
	void theSettingsOverrideTheDefaults() {
		DisniSettings settings = DisniSettings.from(RdmaProviderConfig.defaults()
			.with(DisniSettings.RETRY_COUNT, "7")
			.with(DisniSettings.REQUESTER_RNR_RETRY_COUNT, "3"));
		assertThat(CmRetries.requester(settings)).isEqualTo(new CmRetries(7, 3));
		assertThat(CmRetries.responder(settings, new RnrPolicy(0, Duration.ofMillis(1)))).isEqualTo(new CmRetries(7, 0));
	}

	@Test
	void countsBeyondTheConnectionManagersThreeBitsAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new CmRetries(8, 0))
			.withMessage("Retry counts must be 0 to 7, got retry 8 and RNR retry 0");
	}

}

package io.rpcrdma.verbs.disni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.RdmaProviderConfig;

class DisniSettingsTest {

	@Test
	void defaultsChooseTheDeviceAutomaticallyAndSleepOnCompletionEvents() {
		DisniSettings settings = DisniSettings.defaults();
		assertThat(settings.localAddress()).isNull();
		assertThat(settings.completionMode()).isEqualTo(CompletionMode.EVENT);
		assertThat(settings.retryCount()).isEqualTo(6);
		assertThat(settings.requesterRnrRetryCount()).isZero();
		assertThat(settings.pollBatch()).isEqualTo(16);
		assertThat(settings.maxInlineData()).isZero();
		assertThat(settings.completionQueues()).isEqualTo(4);
		assertThat(settings.completionQueueEntries()).isEqualTo(32768);
	}

	@Test
	void sharedCompletionQueuesAreBoundedSoThatTheirThreadsAre() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> DisniSettings.from(RdmaProviderConfig.defaults().with(DisniSettings.COMPLETION_QUEUES, "65")))
			.withMessage("Provider setting 'disni.completion-queues' must be 1 to 64 but is 65");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> DisniSettings
				.from(RdmaProviderConfig.defaults().with(DisniSettings.COMPLETION_QUEUE_ENTRIES, "100")))
			.withMessage("Provider setting 'disni.completion-queue-entries' must be 256 to 4194304 but is 100");
	}

	@Test
	void everySettingIsReadFromTheProviderConfiguration() {
		DisniSettings settings = DisniSettings.from(new RdmaProviderConfig(Map.ofEntries(
				Map.entry(DisniSettings.LOCAL_ADDRESS, " 10.0.0.5 "), Map.entry(DisniSettings.COMPLETION_MODE, "Busy-Poll"),
				Map.entry(DisniSettings.RETRY_COUNT, "3"), Map.entry(DisniSettings.REQUESTER_RNR_RETRY_COUNT, "7"),
				Map.entry(DisniSettings.POLL_BATCH, "64"), Map.entry(DisniSettings.MAX_INLINE_DATA, "128"),
				Map.entry(DisniSettings.CM_POLL_MILLIS, "5"), Map.entry(DisniSettings.CQ_WAIT_MILLIS, "50"),
				Map.entry(DisniSettings.FLUSH_GRACE_MILLIS, "0"), Map.entry(DisniSettings.COMPLETION_QUEUES, "3"),
				Map.entry(DisniSettings.COMPLETION_QUEUE_ENTRIES, "4096"))));
		assertThat(settings)
			.isEqualTo(new DisniSettings("10.0.0.5", CompletionMode.BUSY_POLL, 3, 7, 64, 128, 5, 50, 0, 3, 4096));
	}

	@Test
	void anUnknownCompletionModeIsRefusedWithTheAllowedValues() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> DisniSettings.from(RdmaProviderConfig.defaults().with(DisniSettings.COMPLETION_MODE, "spin")))
			.withMessage("Provider setting 'disni.completion-mode' must be 'event' or 'busy-poll' but is 'spin'");
	}

	@Test
	void outOfRangeValuesNameTheSettingAndTheRange() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> DisniSettings.from(RdmaProviderConfig.defaults().with(DisniSettings.RETRY_COUNT, "8")))
			.withMessage("Provider setting 'disni.retry-count' must be 0 to 7 but is 8");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> DisniSettings
				.from(RdmaProviderConfig.defaults().with(DisniSettings.REQUESTER_RNR_RETRY_COUNT, "-1")))
			.withMessage("Provider setting 'disni.requester-rnr-retry-count' must be 0 to 7 but is -1");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> DisniSettings.from(RdmaProviderConfig.defaults().with(DisniSettings.POLL_BATCH, "0")))
			.withMessageContaining("disni.poll-batch");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> DisniSettings.from(RdmaProviderConfig.defaults().with(DisniSettings.POLL_BATCH, "x")))
			.withMessageContaining("must be an integer");
	}

	@Test
	void aBlankAddressMeansAutomaticSelection() {
		assertThat(DisniSettings.from(RdmaProviderConfig.defaults().with(DisniSettings.LOCAL_ADDRESS, "  "))
			.localAddress()).isNull();
	}

}

package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

/**
 * Both connection roles size their receives for the backward direction in one place
 * (RFC 8167 §4.3), so the requester no longer borrows the responder's.
 */
class BackwardReceivesTest {

	private final TransportConfig config = TransportConfig.defaults();

	@Test
	void eachBackwardCreditAddsAReceive() {
		TransportConfig sized = BackwardDirection.withBackwardReceives(this.config, 8);
		assertThat(sized.receiveCount()).isEqualTo(this.config.receiveCount() + 8);
		assertThat(sized.creditsRequested()).isEqualTo(this.config.creditsRequested());
		assertThat(sized.creditsGranted()).isEqualTo(this.config.creditsGranted());
	}

	@Test
	void noBackwardCreditsLeaveTheSettingsAsTheyAre() {
		assertThat(BackwardDirection.withBackwardReceives(this.config, 0)).isSameAs(this.config);
	}

	@Test
	void creditsOutsideTheRangeAreRefusedWithTheRange() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BackwardDirection.withBackwardReceives(this.config, BackwardDirection.MAX_CREDITS + 1))
			.withMessage("backwardCredits must be within 0 and 1024, got 1025");
		assertThatIllegalArgumentException().isThrownBy(() -> BackwardDirection.withBackwardReceives(this.config, -1))
			.withMessage("backwardCredits must be within 0 and 1024, got -1");
		assertThat(RpcRdmaServerConnection.MAX_BACKWARD_CREDITS).isEqualTo(BackwardDirection.MAX_CREDITS);
	}

}
